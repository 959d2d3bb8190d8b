import { parentPort } from 'node:worker_threads';
import { isCoreError } from '../../errors.js';
import { runExtraction } from './extract-job.js';
import type { ExtractRequest, ExtractResponse } from './messages.js';

// Worker entry: one job at a time, answers carry the job id.
parentPort?.on('message', (job: ExtractRequest) => {
  let response: ExtractResponse;
  try {
    response = { id: job.id, ok: true, features: runExtraction(job.rgb, job.width, job.height, job.dpi) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    response = isCoreError(error)
      ? {
          id: job.id,
          ok: false,
          error: {
            code: error.code,
            message,
            ...(error.details.extra ? { extra: error.details.extra } : {}),
          },
        }
      : { id: job.id, ok: false, error: { message } };
  }
  parentPort?.postMessage(response);
});
