/**
 * A cancellation signal that follows an operation through its awaits, so every worker job it issues (a face
 * model call deep in a pipeline) is cancelled with it without threading a parameter through pure code.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<AbortSignal>();

/** Run `operation` with `signal` as the default signal of the worker jobs it starts. */
export function withSignal<T>(signal: AbortSignal | undefined, operation: () => Promise<T>): Promise<T> {
  return signal ? storage.run(signal, operation) : operation();
}

/** The signal of the operation the caller runs in, if any. */
export function ambientSignal(): AbortSignal | undefined {
  return storage.getStore();
}
