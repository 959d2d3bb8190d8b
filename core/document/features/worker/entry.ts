/** Worker-thread entry of the feature checks: runs each posted task and posts back its result or error. */
import { parentPort } from 'node:worker_threads';
import { runFeatureTask, type FeatureTask } from './tasks.js';

parentPort?.on('message', (message: { id: number; task: FeatureTask }) => {
  try {
    const started = performance.now();
    const result = runFeatureTask(message.task);
    parentPort?.postMessage({ id: message.id, ok: true, result, ms: performance.now() - started });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
