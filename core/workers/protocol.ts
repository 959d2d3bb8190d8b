/** Messages between a lane (main thread) and its worker threads; every shape is structured-clone safe. */
import type { SerializedError } from './error-transfer.js';

/** What a worker is started with. */
export interface WorkerBoot {
  /** Handler groups to load (registry names), in order. */
  groups: string[];
  /** Data for each group's `init`, by group name. */
  init: Record<string, unknown>;
  /** The lane's control block for this worker: see `CONTROL_*`. */
  control: SharedArrayBuffer;
  /** The process's count of pool jobs queued or running (activity.ts). */
  activity: SharedArrayBuffer;
}

/** Cell of the control block holding the id of the job the caller cancelled (the handler compares its own id). */
export const CONTROL_CANCEL = 0;
/**
 * Cell counting the native calls in progress that must not be interrupted (>0), or -1 while the lane terminates the
 * worker: terminate() during onnxruntime's synchronous run aborts the whole process.
 */
export const CONTROL_NATIVE = 1;
/** Cell set to 1 when the lane wants to terminate the worker: no new native call may begin (no starvation). */
export const CONTROL_STOP = 2;
/** Cells in a control block. */
export const CONTROL_CELLS = 3;

/** Main thread → worker. */
export type ToWorker =
  | { type: 'job'; id: number; kind: string; payload: unknown }
  | { type: 'cancel'; id: number }
  | { type: 'close' };

/** Worker → main thread. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'init-failed'; error: SerializedError }
  | { type: 'done'; id: number; ok: true; value: unknown; ms: number }
  | { type: 'done'; id: number; ok: false; error: SerializedError; ms: number };
