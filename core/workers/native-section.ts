/**
 * Worker side of the terminate guard: `worker.terminate()` while onnxruntime runs a session synchronously aborts
 * the whole process (Napi::Error), so a worker marks such calls and the lane terminates it only between them.
 */
import { CONTROL_NATIVE, CONTROL_STOP } from './protocol.js';

let control: Int32Array | undefined;

/** Called once by the worker entry with this worker's control block. */
export function attachControl(cells: Int32Array): void {
  control = cells;
}

/** Mark the start of a call that must not be interrupted; waits (interruptibly) while the lane is terminating us. */
export function enterNative(): void {
  const cells = control;
  if (!cells) return;
  for (;;) {
    const depth = Atomics.load(cells, CONTROL_NATIVE);
    // -1: the lane holds the lock and terminates this worker; a stop request with no call in progress: it is
    // about to (with calls in progress, blocking here would keep them from ever finishing). Wait for it here.
    const stopping = depth === 0 && Atomics.load(cells, CONTROL_STOP) === 1;
    if (depth < 0 || stopping) Atomics.wait(cells, CONTROL_NATIVE, depth, 50);
    else if (Atomics.compareExchange(cells, CONTROL_NATIVE, depth, depth + 1) === depth) return;
  }
}

/** Mark the end of a call begun with `enterNative`. */
export function exitNative(): void {
  if (control) Atomics.sub(control, CONTROL_NATIVE, 1);
}

/** Run `call` (sync, or async until it settles) inside a native section. */
export async function inNativeSection<T>(call: () => Promise<T>): Promise<T> {
  enterNative();
  try {
    return await call();
  } finally {
    exitNative();
  }
}

interface OrtSessionClass {
  prototype: { run: (...args: never[]) => Promise<unknown>; release: () => Promise<void> };
  create: (...args: never[]) => Promise<unknown>;
}

const guarded = new WeakSet<object>();

/**
 * Mark every onnxruntime session call of this worker (create, run, release) as native, including calls made by
 * code the worker imports (the MRZ reader's recognizer). Idempotent.
 */
export function guardOnnxRuntime(ort: { InferenceSession: unknown }): void {
  const Session = ort.InferenceSession as OrtSessionClass;
  if (guarded.has(Session)) return;
  guarded.add(Session);
  const { run, release } = Session.prototype;
  const create = Session.create.bind(Session);
  Session.prototype.run = function (this: unknown, ...args: never[]) {
    return inNativeSection(() => run.apply(this, args));
  };
  Session.prototype.release = function (this: unknown) {
    return inNativeSection(() => release.apply(this));
  };
  Session.create = (...args: never[]) => inNativeSection(() => create(...args));
}
