import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusOf, isCoreError } from '../../../errors.js';
import type { Services } from '../../../services/container.js';
import { runVerification, type StepProgress } from '../../../services/verify-pipeline.js';
import { appendAuditRow } from '../../audit-hook.js';
import { CLIENT_CLOSED_STATUS } from '../../client-closed.js';
import { readVerificationInput, recordVerification } from '../v2-verify.js';
import type { VerifyStreamEvent } from './api-types.js';
import { calibrationFor } from './engine-capabilities.js';
import { actAsConsole, requireRole } from './guard.js';
import { toOutcome } from './step-outcome.js';

type ErrorEvent = Extract<VerifyStreamEvent, { type: 'error' }>;

/** NDJSON over the POST's own response: a fetch reads it line by line as the steps finish. */
const NDJSON = 'application/x-ndjson; charset=utf-8';

function progressEvent(services: Services, progress: StepProgress): VerifyStreamEvent {
  if (progress.phase === 'started') return { type: 'step', step: progress.step, phase: 'started' };
  const engine =
    progress.step === 'fingerprint' ? 'fingerprint' : progress.step === 'face_match' ? 'face' : undefined;
  const calibration = engine ? calibrationFor(services, engine)?.points : undefined;
  return {
    type: 'step',
    step: progress.step,
    phase: 'finished',
    outcome: toOutcome(progress.step, progress.result, calibration),
  };
}

/** The error line of a failure after the stream started, with the status /v2/verify would have answered. */
function errorEvent(request: FastifyRequest, error: unknown): ErrorEvent {
  if (isCoreError(error)) {
    return { type: 'error', httpStatus: httpStatusOf(error.code), code: error.code, message: error.message };
  }
  request.log.error({ err: error instanceof Error ? error.message : String(error) }, 'verification failed');
  return {
    type: 'error',
    httpStatus: 500,
    code: 'INTERNAL',
    message: 'An internal error occurred; the verification was not completed.',
  };
}

/** A response stream of NDJSON lines, opened on the first line; lines to a client that left are dropped. */
function lineStream(reply: FastifyReply): { write: (event: VerifyStreamEvent) => void; end: () => void } {
  let stream: PassThrough | undefined;
  return {
    write(event) {
      if (!stream) {
        stream = new PassThrough();
        void reply.code(200).header('content-type', NDJSON).header('cache-control', 'no-store').send(stream);
      }
      if (!stream.destroyed) stream.write(`${JSON.stringify(event)}\n`);
    },
    end() {
      stream?.end();
    },
  };
}

/**
 * POST /api/console/run/verify: /v2/verify's pipeline on the console session, its steps streamed as they start
 * and finish. Bad input and missing engines fail before the stream opens (4xx/501 as /v2/verify); once it is
 * open, the outcome is audited in one row, then sent as the last line.
 */
export function registerConsoleVerifyRoute(app: FastifyInstance, services: Services): void {
  app.post('/run/verify', { preHandler: requireRole('operator', 'admin') }, async (request, reply) => {
    actAsConsole(request);
    const input = await readVerificationInput(request, services);
    const lines = lineStream(reply);
    let streaming = false;
    try {
      const outcome = await runVerification(services, input, (progress) => {
        if (!streaming) {
          streaming = true;
          // The row is written once the outcome is known, not when the stream's headers leave.
          request.idv.audited = false;
        }
        lines.write(progressEvent(services, progress));
      });
      recordVerification(request, outcome);
      await appendAuditRow(services, request, 200);
      const message = typeof outcome.body.message === 'string' ? outcome.body.message : '';
      lines.write({
        type: 'result',
        status: outcome.status,
        ...(outcome.failedStep ? { failedStep: outcome.failedStep } : {}),
        message,
      });
    } catch (error) {
      if (!streaming) throw error;
      if (request.resources?.clientGone.aborted) {
        // The operator left the page: nobody reads the stream, and the run is audited as abandoned.
        request.idv.clientClosed = true;
        request.idv.reason = 'client_closed';
        await appendAuditRow(services, request, CLIENT_CLOSED_STATUS);
        lines.end();
        return reply;
      }
      const event = errorEvent(request, error);
      request.idv.resultStatus = 'ERROR';
      request.idv.reason = event.code;
      await appendAuditRow(services, request, event.httpStatus);
      lines.write(event);
    }
    lines.end();
    return reply;
  });
}
