import { CoreError } from '../../errors.js';

/** Throw the 501 answer of a route whose engine is not built (or not loaded); never a fake result. */
export function notImplemented(what: string): never {
  throw new CoreError('NOT_IMPLEMENTED', `${what} is not available in this build yet.`);
}
