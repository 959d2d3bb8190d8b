import type { FastifyRequest } from 'fastify';
import type { StepResult } from '../contracts/step-result.js';
import type { StepName } from '../services/verify-pipeline.js';

/**
 * A rejected check as SPEC 2.4's body (answered with HTTP 200) plus its machine-readable reason, with the
 * request's audit info marked with the failed step and reason. Shared by every single-check route.
 */
export function rejectedStep(
  request: FastifyRequest,
  step: StepName,
  result: StepResult,
  fallbackReason: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const reason = result.reason ?? fallbackReason;
  request.idv.failedStep = step;
  request.idv.reason = reason;
  return { step, status: 'REJECTED', score: result.score, message: result.message, reason, ...extra };
}
