import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { evaluateJob, type EvalJob } from './jobs.js';
import type { SetResult } from './run-set.js';

/** The job worker beside this module; under tsx its .ts source, through a bootstrap that registers tsx first. */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./job-worker.js', import.meta.url));
  const entry = new URL('./job-worker.ts', import.meta.url).href;
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Run the jobs on `workers` threads (1: on this thread, one after the other), each result in its job's place.
 * `onDone` hears of each job as it finishes.
 */
export async function runJobs(
  jobs: EvalJob[],
  workers: number,
  onDone?: (job: EvalJob, result: SetResult) => void,
): Promise<SetResult[]> {
  const results: SetResult[] = new Array<SetResult>(jobs.length);
  if (workers <= 1) {
    for (let i = 0; i < jobs.length; i++) {
      results[i] = await evaluateJob(jobs[i]!);
      onDone?.(jobs[i]!, results[i]!);
    }
    return results;
  }
  let next = 0;
  const lane = async (): Promise<void> => {
    const worker = startWorker();
    try {
      while (next < jobs.length) {
        const id = next++;
        const result = await new Promise<SetResult>((resolve, reject) => {
          const onMessage = (m: { id: number; result?: SetResult; error?: string }): void => {
            if (m.id !== id) return;
            worker.off('message', onMessage);
            worker.off('error', reject);
            if (m.result) resolve(m.result);
            else reject(new Error(m.error ?? 'evaluation failed'));
          };
          worker.on('message', onMessage);
          worker.once('error', reject);
          worker.postMessage({ id, job: jobs[id] });
        });
        results[id] = result;
        onDone?.(jobs[id]!, result);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, jobs.length) }, lane));
  return results;
}
