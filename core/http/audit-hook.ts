import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditFields } from '../contracts/audit-chain.js';
import { isCoreError } from '../errors.js';
import type { Services } from '../services/container.js';
import { maskMobile } from '../mobile.js';
import type { RequestAudit } from './request-context.js';

/**
 * Write one audit row per audited request before the response leaves (onSend), atomically with the route's `outbox`
 * events; then run `afterCommit`. Only statuses, scores and ids are written. A row that cannot be written (the
 * store is full or locked) turns an answer into that 503: no result leaves unaudited. An error answer whose row
 * cannot be written leaves as it is, logged.
 */
export function installAuditHook(app: FastifyInstance, services: Services): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const idv = request.idv as typeof request.idv | undefined;
    if (!idv?.audited) return payload;
    try {
      await appendAuditRow(services, request, reply.statusCode);
    } catch (error) {
      if (!isCoreError(error) || error.code !== 'STORE_UNAVAILABLE') {
        if (reply.statusCode < 400) throw error;
        // An error answer stays as it is: its own cause matters more to the client than the missing row.
        request.log.warn(
          { status: reply.statusCode, err: error instanceof Error ? error.message : String(error) },
          'audit row not written',
        );
        return payload;
      }
      // No answer leaves without its audit row: with the store away or full the client is told to retry instead.
      request.log.warn({ code: error.code }, 'audit row not written: the store cannot write');
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

/** The fields of a request's audit row for the answer `status`, from its audit record (by default its own). */
export function auditFields(
  request: FastifyRequest,
  status: number,
  idv: RequestAudit = request.idv,
): AuditFields {
  const latencyMs = Number(process.hrtime.bigint() - request.idvStartedAt) / 1e6;
  // An abandoned request has no result: neither an error of ours nor of the caller's input.
  const resultStatus = idv.clientClosed ? null : (idv.resultStatus ?? (status >= 400 ? 'ERROR' : null));
  return {
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
  };
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
  const fields = auditFields(request, status);
  await services.audit.append(fields, idv.outbox ? { outbox: idv.outbox } : {});
  idv.afterCommit?.();
  logAudited(request, fields);
}

/**
 * A request whose row was committed by its own write (an enrollment with its audit row): the onSend hook writes
 * no other, and the log says what was audited.
 */
export function auditedWithWrite(request: FastifyRequest, fields: AuditFields): void {
  request.idv.audited = false;
  logAudited(request, fields);
}

function logAudited(request: FastifyRequest, fields: AuditFields): void {
  const idv = request.idv;
  request.log.info(
    {
      route: fields.route,
      status: fields.httpStatus,
      result: fields.resultStatus,
      step: idv.failedStep,
      scores: idv.scores,
      key: idv.keyId,
      ms: Math.round(fields.latencyMs),
    },
    'audited',
  );
}

function roundScores(scores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, Math.round(v * 1e6) / 1e6]));
}
