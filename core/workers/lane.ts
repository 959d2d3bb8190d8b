/**
 * The worker pool every engine uses: a lane of worker threads loading the same handler groups, behind one bounded
 * FIFO with admission by expected wait. A worker that exits, throws at top level or overruns a job's time limit is
 * replaced and only its job fails (ENGINE_UNAVAILABLE, 503 with Retry-After); workers that keep failing to start
 * stop being respawned and the lane reports that it cannot serve.
 */
import { CoreError } from '../errors.js';
import { refusal, ServiceTimes, expectedWaitMs, type AdmissionLimits } from './admission.js';
import { jobAdmitted, jobSettled } from './activity.js';
import { ambientSignal } from './ambient-signal.js';
import type { HandlerTable, PayloadOf, ResultOf } from './handler-types.js';
import type { FromWorker } from './protocol.js';
import { reviveError } from './error-transfer.js';
import type { GroupName } from './registry.js';
import { WorkerSlot, type SlotEvents } from './worker-slot.js';

/** How a lane is built; sizes and limits come from `laneDefaults` unless a caller overrides them. */
export interface LaneOptions extends AdmissionLimits {
  /** Name in health reports (`face`, `fingerprint`, ...). */
  name: string;
  /** What clients are told is busy or failed, e.g. "face engine". */
  label: string;
  /** Handler groups each worker loads. */
  groups: readonly GroupName[];
  /** Data for each group's `init`. */
  init?: Partial<Record<GroupName, unknown>>;
  /** Worker threads. */
  size: number;
  /** Time limit of a job from the moment a worker takes it, ms; beyond it the worker is replaced. */
  timeoutMs: number;
  /** Per task kind: its own time limit, and its expected service time before one is measured. */
  kinds?: Readonly<Record<string, { timeoutMs?: number; expectedMs?: number }>>;
  /** Consecutive failed worker starts after which the lane stops respawning and cannot serve. Default 3. */
  maxStartFailures?: number;
  /** How long a lane that gave up waits before a new job may try one start again, ms. Default 30 000. */
  restartCooldownMs?: number;
  /** A worker not ready this long after it was started counts as a failed start, ms. Default 120 000. */
  startTimeoutMs?: number;
}

/** Options of one job. */
export interface RunOptions {
  /** Cancels the job: dropped while queued; flagged (TaskContext.cancelled) while running. Default: the ambient one. */
  signal?: AbortSignal;
  /** Buffers of the payload to move to the worker instead of copying (the caller must not use them again). */
  transfer?: ArrayBuffer[];
  /**
   * Called when a worker takes the job, instead of `transfer`: it may replace the payload's buffers by copies and
   * returns the buffers to move. Copying then rather than at admission keeps queued jobs from holding copies.
   */
  prepare?: () => ArrayBuffer[];
}

/** A result with the time the handler itself took in the worker (queueing excluded), ms. */
export interface Timed<T> {
  result: T;
  ms: number;
}

/** A lane's figures for health reports. */
export interface LaneStats {
  name: string;
  /** idle: no worker started yet; failed: workers keep failing to start (cannot serve); closed: shut down. */
  state: 'idle' | 'starting' | 'ready' | 'failed' | 'closed';
  size: number;
  workers: number;
  starting: number;
  busy: number;
  queued: number;
  maxQueue: number;
  maxWaitMs: number;
  expectedWaitMs: number;
  /** Workers replaced after an exit, an uncaught error or an overrun job. */
  replaced: number;
  /** Failed starts in a row. */
  startFailures: number;
  lastFailure: { at: string; reason: string } | null;
  /** Recent mean service time per task kind, ms. */
  meanMs: Record<string, number>;
}

interface Job {
  id: number;
  kind: string;
  payload: unknown;
  transfer: ArrayBuffer[];
  prepare: (() => ArrayBuffer[]) | undefined;
  timeoutMs: number;
  startedAt?: number;
  timer?: NodeJS.Timeout;
  settled: boolean;
  slot?: WorkerSlot;
  resolve(value: Timed<unknown>): void;
  reject(error: unknown): void;
  release(): void;
}

/** Start-failure backoff before the next attempt, ms (doubles per failure). */
const RESTART_BACKOFF_MS = 200;
/** Grace a closing worker gets to release its sessions before it is terminated, ms. */
const CLOSE_GRACE_MS = 2000;

/** A lane of worker threads serving the task kinds of `Table`. */
export class WorkerLane<Table extends HandlerTable> {
  readonly #options: LaneOptions;
  readonly #slots: WorkerSlot[] = [];
  readonly #queue: Job[] = [];
  readonly #running = new Map<WorkerSlot, Job>();
  readonly #times: ServiceTimes;
  readonly #events: SlotEvents;
  #nextId = 1;
  #closed = false;
  #warm = false;
  #replaced = 0;
  #startFailures = 0;
  #failedAt: number | undefined;
  #respawnAt = 0;
  #respawnTimer: NodeJS.Timeout | undefined;
  #lastFailure: { at: string; reason: string } | null = null;
  #startWaiters: { resolve(): void; reject(error: Error): void }[] = [];

  constructor(options: LaneOptions) {
    this.#options = { maxStartFailures: 3, restartCooldownMs: 30_000, startTimeoutMs: 120_000, ...options };
    const seeds: Record<string, number> = {};
    for (const [kind, k] of Object.entries(options.kinds ?? {}))
      if (k.expectedMs !== undefined) seeds[kind] = k.expectedMs;
    this.#times = new ServiceTimes(seeds);
    this.#events = {
      ready: () => {
        this.#onReady();
      },
      startFailed: (slot, error) => {
        this.#onStartFailed(slot, error);
      },
      done: (slot, message) => {
        this.#onDone(slot, message);
      },
      gone: (slot, reason) => {
        this.#onGone(slot, reason);
      },
    };
  }

  /** The lane's name. */
  get name(): string {
    return this.#options.name;
  }

  /** Run a task on a worker; refused at once with OVERLOADED or ENGINE_UNAVAILABLE when it cannot be served. */
  async run<Kind extends keyof Table & string>(
    kind: Kind,
    payload: PayloadOf<Table, Kind>,
    options: RunOptions = {},
  ): Promise<ResultOf<Table, Kind>> {
    return (await this.runTimed(kind, payload, options)).result;
  }

  /** `run`, with the handler's own time. */
  runTimed<Kind extends keyof Table & string>(
    kind: Kind,
    payload: PayloadOf<Table, Kind>,
    options: RunOptions = {},
  ): Promise<Timed<ResultOf<Table, Kind>>> {
    const signal = options.signal ?? ambientSignal();
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const refused = this.unavailable() ?? this.#admission();
    if (refused) return Promise.reject(refused);
    return new Promise<Timed<ResultOf<Table, Kind>>>((resolve, reject) => {
      const job: Job = {
        id: this.#nextId++,
        kind,
        payload,
        transfer: options.transfer ?? [],
        prepare: options.prepare,
        timeoutMs: this.#options.kinds?.[kind]?.timeoutMs ?? this.#options.timeoutMs,
        settled: false,
        resolve: resolve as (value: Timed<unknown>) => void,
        reject,
        release: () => undefined,
      };
      if (signal) {
        const onAbort = (): void => {
          this.#cancel(job, signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        job.release = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
      jobAdmitted();
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Start every worker now and resolve once all are ready; rejects with the first start failure (e.g. a bad model). */
  start(): Promise<void> {
    const refused = this.unavailable();
    if (refused) return Promise.reject(refused);
    this.#warm = true;
    this.#replenish();
    if (this.#readyCount() >= this.#options.size) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#startWaiters.push({ resolve, reject });
    });
  }

  /** Why the lane cannot take jobs now (shut down, or workers failing to start), or null when it can. */
  unavailable(): CoreError | null {
    if (this.#closed)
      return new CoreError('ENGINE_UNAVAILABLE', `The ${this.#options.label} is shut down.`, {
        retryAfterSeconds: 5,
      });
    if (this.#failedAt === undefined) return null;
    const remaining = this.#failedAt + this.#options.restartCooldownMs! - performance.now();
    if (remaining > 0) {
      return new CoreError(
        'ENGINE_UNAVAILABLE',
        `The ${this.#options.label} cannot start its workers; retry later.`,
        { retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(remaining / 1000))) },
      );
    }
    // Cooldown over: let one more start be tried; a failure gives up again at once.
    this.#failedAt = undefined;
    this.#startFailures = this.#options.maxStartFailures! - 1;
    this.#respawnAt = 0;
    return null;
  }

  /** Figures for health reports. */
  stats(): LaneStats {
    const starting = this.#slots.filter((s) => s.state === 'starting').length;
    return {
      name: this.#options.name,
      state: this.#closed
        ? 'closed'
        : this.#failedAt !== undefined
          ? 'failed'
          : this.#slots.length === 0
            ? 'idle'
            : starting === this.#slots.length
              ? 'starting'
              : 'ready',
      size: this.#options.size,
      workers: this.#slots.length,
      starting,
      busy: this.#running.size,
      queued: this.#queue.length,
      maxQueue: this.#options.maxQueue,
      maxWaitMs: this.#options.maxWaitMs,
      expectedWaitMs: Math.round(this.#expectedWait()),
      replaced: this.#replaced,
      startFailures: this.#startFailures,
      lastFailure: this.#lastFailure,
      meanMs: this.#times.snapshot(),
    };
  }

  /** Stop every worker (each releases what it holds first); queued and running jobs fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#respawnTimer);
    const error = this.unavailable()!;
    for (const job of this.#queue.splice(0)) this.#settle(job, error);
    for (const job of this.#running.values()) this.#settle(job, error);
    this.#running.clear();
    for (const waiter of this.#startWaiters.splice(0)) waiter.reject(error);
    await Promise.all(this.#slots.splice(0).map((slot) => slot.close(CLOSE_GRACE_MS)));
  }

  #admission(): CoreError | null {
    const freeNow =
      this.#slots.some((s) => s.state === 'idle') ||
      this.#slots.length + this.#queue.length < this.#options.size;
    return refusal(this.#options.label, this.#options, {
      queued: this.#queue.length,
      waitMs: freeNow ? 0 : this.#expectedWait(),
      freeNow,
    });
  }

  #expectedWait(): number {
    const work = [...this.#running.values(), ...this.#queue].map((job) =>
      job.startedAt === undefined ? { kind: job.kind } : { kind: job.kind, startedAt: job.startedAt },
    );
    return expectedWaitMs(work, this.#options.size, this.#times);
  }

  #readyCount(): number {
    return this.#slots.filter((s) => s.state === 'idle' || s.state === 'busy').length;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const slot = this.#slots.find((s) => s.state === 'idle');
      if (!slot) break;
      this.#dispatch(slot, this.#queue.shift()!);
    }
    // Start workers for the jobs still waiting, one per job, up to the lane's size.
    const starting = this.#slots.filter((s) => s.state === 'starting').length;
    if (this.#queue.length > starting) this.#spawn(this.#queue.length - starting);
    this.#refUnref();
  }

  #replenish(): void {
    if (this.#warm) this.#spawn(this.#options.size);
    this.#pump();
  }

  #spawn(wanted: number): void {
    if (this.#closed || this.#failedAt !== undefined) return;
    const now = performance.now();
    if (now < this.#respawnAt) {
      this.#respawnTimer ??= setTimeout(() => {
        this.#respawnTimer = undefined;
        this.#replenish();
      }, this.#respawnAt - now).unref();
      return;
    }
    const room = this.#options.size - this.#slots.length;
    for (let i = 0; i < Math.min(wanted, room); i++) {
      const init: Record<string, unknown> = {};
      for (const group of this.#options.groups) init[group] = this.#options.init?.[group];
      const slot = new WorkerSlot({ groups: [...this.#options.groups], init }, this.#events);
      this.#slots.push(slot);
      setTimeout(() => {
        if (slot.state !== 'starting') return;
        this.#onStartFailed(slot, new Error(`not ready after ${this.#options.startTimeoutMs! / 1000} s`));
        void slot.terminate();
      }, this.#options.startTimeoutMs).unref();
    }
  }

  #dispatch(slot: WorkerSlot, job: Job): void {
    job.startedAt = performance.now();
    job.slot = slot;
    this.#running.set(slot, job);
    job.timer = setTimeout(() => {
      this.#onTimeout(slot, job);
    }, job.timeoutMs);
    job.timer.unref();
    const transfer = job.prepare ? job.prepare() : job.transfer;
    slot.post({ type: 'job', id: job.id, kind: job.kind, payload: job.payload }, transfer);
    // The payload now belongs to the worker (or its clone does): drop the reference.
    job.payload = undefined;
  }

  #cancel(job: Job, reason: unknown): void {
    if (job.settled) return;
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) this.#queue.splice(queued, 1);
    else if (job.slot) job.slot.cancel(job.id);
    this.#settle(job, reason);
  }

  #settle(job: Job, outcome: unknown, value?: Timed<unknown>): void {
    if (job.settled) return;
    job.settled = true;
    jobSettled();
    job.release();
    if (value) job.resolve(value);
    else job.reject(outcome);
  }

  #onReady(): void {
    this.#startFailures = 0;
    this.#respawnAt = 0;
    if (this.#readyCount() >= this.#options.size)
      for (const waiter of this.#startWaiters.splice(0)) waiter.resolve();
    this.#pump();
  }

  #onDone(slot: WorkerSlot, message: Extract<FromWorker, { type: 'done' }>): void {
    const job = this.#running.get(slot);
    if (!job || job.id !== message.id) return;
    this.#running.delete(slot);
    clearTimeout(job.timer);
    slot.state = 'idle';
    if (!job.settled) this.#times.record(job.kind, performance.now() - job.startedAt!);
    if (message.ok) this.#settle(job, undefined, { result: message.value, ms: message.ms });
    else this.#settle(job, reviveError(message.error));
    this.#pump();
  }

  #onStartFailed(slot: WorkerSlot, error: Error): void {
    this.#remove(slot);
    this.#startFailures++;
    this.#failure(`a worker failed to start: ${error.message}`);
    for (const waiter of this.#startWaiters.splice(0)) waiter.reject(error);
    if (this.#startFailures >= this.#options.maxStartFailures!) {
      this.#failedAt = performance.now();
      const refused = this.unavailable()!;
      for (const job of this.#queue.splice(0)) this.#settle(job, refused);
      return;
    }
    this.#respawnAt = performance.now() + RESTART_BACKOFF_MS * 2 ** (this.#startFailures - 1);
    this.#replenish();
  }

  #onGone(slot: WorkerSlot, reason: string): void {
    this.#lose(slot, `a worker ${reason}`, 'its worker stopped');
  }

  #onTimeout(slot: WorkerSlot, job: Job): void {
    if (this.#running.get(slot) !== job) return;
    const limit = `${Number((job.timeoutMs / 1000).toFixed(1))} s`;
    this.#lose(slot, `a job did not finish within ${limit}`, `it did not finish within ${limit}`);
    void slot.terminate();
  }

  /**
   * A worker that was serving is gone or retired: fail its job (`told` is what its client reads; `reason`, with
   * internals, goes to health), count it, and start a replacement.
   */
  #lose(slot: WorkerSlot, reason: string, told: string): void {
    this.#remove(slot);
    this.#replaced++;
    this.#failure(reason);
    const job = this.#running.get(slot);
    this.#running.delete(slot);
    if (job) {
      clearTimeout(job.timer);
      this.#settle(
        job,
        new CoreError(
          'ENGINE_UNAVAILABLE',
          `The ${this.#options.label} could not complete this request (${told}); retry shortly.`,
          { retryAfterSeconds: 1 },
        ),
      );
    }
    this.#replenish();
  }

  #remove(slot: WorkerSlot): void {
    slot.state = 'gone';
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
  }

  #failure(reason: string): void {
    this.#lastFailure = { at: new Date().toISOString(), reason: reason.slice(0, 240) };
  }

  /** Busy and starting workers keep the process alive (a caller awaits them); idle ones must not. */
  #refUnref(): void {
    for (const slot of this.#slots) {
      if (slot.state === 'idle') slot.worker.unref();
      else slot.worker.ref();
    }
  }
}
