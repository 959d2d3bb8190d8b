import type { VerificationEvent } from './event.js';
import type { Decision, PipelineOutcome } from './pipeline.js';
import type { StageOutcome } from './stage-runner.js';

/** The synchronous answer of POST /docs/orchestrator/api/verify. */
export interface VerifyResponse {
  /** SUCCESS when APPROVED (SPEC 3.1), REJECTED, or REVIEW (a human decides). */
  status: 'SUCCESS' | 'REJECTED' | 'REVIEW';
  decision: Decision;
  message: string;
  /** Weighted combined score in [0,1]; null when a stage gave no score. */
  combined_score: number | null;
  /** The stage (or `combined`) that decided a rejection or review (SPEC 2.4's `step`). */
  step?: string;
  /** Score of that step (SPEC 2.4's `score`). */
  score?: number;
  reason?: string;
  stages: Record<'liveness' | 'face_match', StageOutcome>;
  thresholds: VerificationEvent['thresholds'];
  /** Id of the published event: consumers de-duplicate on it; callers correlate with it. */
  event_id: string;
  request_id: string;
  /** The caller's reference as stored and published (masked when it looks personal). */
  reference: string | null;
  reference_masked: boolean;
  model_versions: Record<string, string>;
}

/** What the audit row records: status, failed step, reason, scores. */
export interface AuditFacts {
  resultStatus: string;
  failedStep?: string;
  reason?: string;
  scores: Record<string, number>;
}

const STATUS: Record<Decision, VerifyResponse['status']> = {
  APPROVED: 'SUCCESS',
  REJECTED: 'REJECTED',
  REVIEW: 'REVIEW',
};

function stepScore(outcome: PipelineOutcome): number | undefined {
  if (outcome.failed_step === null) return undefined;
  if (outcome.failed_step === 'combined') return outcome.combined_score ?? undefined;
  return outcome.stages[outcome.failed_step].score ?? 0;
}

/** Shape the HTTP body from the event and the stage details. Pure. */
export function toResponse(event: VerificationEvent, outcome: PipelineOutcome): VerifyResponse {
  const body: VerifyResponse = {
    status: STATUS[event.decision],
    decision: event.decision,
    message: outcome.message,
    combined_score: outcome.combined_score,
    stages: outcome.stages,
    thresholds: event.thresholds,
    event_id: event.id,
    request_id: event.request_id,
    reference: event.reference,
    reference_masked: event.reference_masked,
    model_versions: event.model_versions,
  };
  if (outcome.failed_step !== null) body.step = outcome.failed_step;
  const score = stepScore(outcome);
  if (score !== undefined) body.score = score;
  if (outcome.reason !== null) body.reason = outcome.reason;
  return body;
}

/** Audit facts of one decision. Pure. */
export function toAudit(outcome: PipelineOutcome): AuditFacts {
  const scores: Record<string, number> = {};
  if (outcome.stages.liveness.score !== null) scores.liveness = outcome.stages.liveness.score;
  if (outcome.stages.face_match.score !== null) scores.face_match = outcome.stages.face_match.score;
  if (outcome.combined_score !== null) scores.combined = outcome.combined_score;
  const facts: AuditFacts = { resultStatus: STATUS[outcome.decision], scores };
  if (outcome.failed_step !== null) facts.failedStep = outcome.failed_step;
  if (outcome.reason !== null) facts.reason = outcome.reason;
  return facts;
}
