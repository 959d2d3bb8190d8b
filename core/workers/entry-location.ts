/**
 * Where the worker entry lives: the one place a bundle overrides. From source (tsx, vitest) it is `entry.ts`
 * beside this file, started through tsx's loader; from compiled JS, `entry.js` beside this file; a bundle that
 * inlines this module calls `setWorkerEntry` with the URL of its bundled entry before any lane starts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

let override: URL | undefined;

/** Use this file as the worker entry (a bundled `entry.ts`); call once at start, before any lane runs a job. */
export function setWorkerEntry(url: URL): void {
  override = url;
}

/** Start a worker thread on the entry. */
export function startWorkerThread(options: WorkerOptions): Worker {
  if (override) return new Worker(override, options);
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./entry.js', import.meta.url), options);
  // On Node 20 `execArgv: ['--import', 'tsx']` does not reach a worker's entry module: a one-line bootstrap
  // registers tsx's ESM loader in the worker (its CommonJS build cannot load from an eval worker), then imports.
  const entry = new URL('./entry.ts', import.meta.url).href;
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
