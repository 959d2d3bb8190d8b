/** What a handler group (the worker side of a lane) implements. */

/** What a running handler can ask of its worker. */
export interface TaskContext {
  /** True once the caller cancelled this job: a long handler polls it (cheap, a shared-memory read) and stops. */
  cancelled(): boolean;
  /**
   * True while this is the process's only pool job, queued or running, in any lane (a shared-memory read): the
   * machine's other cores are idle, so a handler may use a second thread for the call it is about to make.
   */
  alone(): boolean;
  /** Aborted when the caller cancels, for handlers that await (it fires between awaits, not inside a loop). */
  readonly signal: AbortSignal;
  /** Move these buffers of the result to the main thread instead of copying them. */
  transfer(...buffers: ArrayBuffer[]): void;
}

/** One task kind's work: payload in, result out (both structured-clone safe); a CoreError keeps its code. */
export type TaskHandler<Payload = never, Result = unknown> = (
  payload: Payload,
  context: TaskContext,
) => Result | Promise<Result>;

/** The handlers of a group by task kind; kinds are namespaced by group (`face.infer`, `document.mrz`). */
export type HandlerTable = Record<string, TaskHandler>;

/** A module's worth of task kinds, loaded by a worker of each lane that names it. */
export interface HandlerGroup<Table extends HandlerTable = HandlerTable> {
  handlers: Table;
  /** Runs once per worker before it serves (load models, start helpers); a throw means the worker cannot start. */
  init?(data: unknown): void | Promise<void>;
  /** Runs before every job of the worker, whatever its group (the fault-injection group uses it). */
  beforeJob?(kind: string): void;
  /** Release what `init` made before the worker leaves. */
  dispose?(): void | Promise<void>;
}

/** The payload type of a task kind. */
export type PayloadOf<Table extends HandlerTable, Kind extends keyof Table> = Parameters<Table[Kind]>[0];

/** The result type of a task kind. */
export type ResultOf<Table extends HandlerTable, Kind extends keyof Table> = Awaited<ReturnType<Table[Kind]>>;
