import { parentPort } from 'node:worker_threads';
import { evaluateJob, type EvalJob } from './jobs.js';

// Worker entry: one evaluation job per message, answered in order.
parentPort?.on('message', (message: { id: number; job: EvalJob }) => {
  evaluateJob(message.job).then(
    (result) => parentPort?.postMessage({ id: message.id, result }),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
