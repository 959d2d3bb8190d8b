import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services/container.js';
import { isCoreError } from '../errors.js';
import { maskMobile } from '../mobile.js';

/**
 * Write one audit row per audited request before the response leaves (onSend), atomically with the route's `outbox`
 * events; then run `afterCommit`. Only statuses, scores and ids are written.
 */
export function installAuditHook(app: FastifyInstance, services: Services): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const idv = request.idv as typeof request.idv | undefined;
    if (!idv?.audited) return payload;
    try {
      await appendAuditRow(services, request, reply.statusCode);
    } catch (error) {
      if (!isCoreError(error) || error.code !== 'STORE_UNAVAILABLE') throw error;
      // No answer leaves without its audit row: with the database away the client is told to retry instead.
      request.log.warn({ code: error.code }, 'audit row not written: the database does not answer');
      reply
        .code(503)
        .header('retry-after', String(error.details.retryAfterSeconds ?? 1))
        .header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({
        status: 'ERROR',
        code: error.code,
        message: error.message,
        request_id: request.id,
      });
    }
    return payload;
  });
}

/**
 * The audit row of one request, as the onSend hook writes it. A streamed response (the console's verification)
 * turns its request's `audited` off and calls this itself once its outcome is known, before the last line leaves.
 */
export async function appendAuditRow(
  services: Services,
  request: FastifyRequest,
  status: number,
): Promise<void> {
  const idv = request.idv;
  const latencyMs = Number(process.hrtime.bigint() - request.idvStartedAt) / 1e6;
  // An abandoned request has no result: neither an error of ours nor of the caller's input.
  const resultStatus = idv.clientClosed ? null : (idv.resultStatus ?? (status >= 400 ? 'ERROR' : null));
  await services.audit.append(
    {
      time: new Date().toISOString(),
      requestId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unknown',
      keyId: idv.keyId,
      authOutcome: idv.authOutcome,
      httpStatus: status,
      resultStatus,
      failedStep: idv.failedStep ?? null,
      reason: idv.reason ?? null,
      scores: idv.scores ? JSON.stringify(roundScores(idv.scores)) : null,
      latencyMs,
      mobileMasked: idv.mobile ? maskMobile(idv.mobile) : null,
      event: idv.event ?? null,
    },
    idv.outbox ? { outbox: idv.outbox } : {},
  );
  idv.afterCommit?.();
  request.log.info(
    {
      route: request.routeOptions.url,
      status,
      result: resultStatus,
      step: idv.failedStep,
      scores: idv.scores,
      key: idv.keyId,
      ms: Math.round(latencyMs),
    },
    'audited',
  );
}

function roundScores(scores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, Math.round(v * 1e6) / 1e6]));
}
