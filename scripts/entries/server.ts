/**
 * Bundle entry of `dist/server.mjs`: `npm run serve` (core/cli/serve.ts, same flags) as compiled JS, its worker threads
 * started from `dist/worker.mjs`.
 */
import { setWorkerEntry } from '../../core/index.js';

setWorkerEntry(new URL('./worker.mjs', import.meta.url));
// Imported after the worker entry is set: serve.ts starts the engines as it loads.
await import('../../core/cli/serve.js');
