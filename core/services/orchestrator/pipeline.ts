import { STAGES, type OrchestratorConfig, type StageName } from './config.js';
import { runStage, type StageFunction, type StageOutcome } from './stage-runner.js';

/** The three decisions of the orchestrator. */
export type Decision = 'APPROVED' | 'REJECTED' | 'REVIEW';

/** Everything the orchestrator decided for one request (pure data; no images). */
export interface PipelineOutcome {
  decision: Decision;
  /** Stage that decided a REJECTED/REVIEW, or `combined` when the combined score fell below the band; else null. */
  failed_step: StageName | 'combined' | null;
  /** Machine-readable reason of a non-approval (e.g. below_min_score, no_match, stage_timeout, review_band). */
  reason: string | null;
  /** Weighted combined score, null when a stage produced no score (skipped, timed out, failed). */
  combined_score: number | null;
  stages: Record<StageName, StageOutcome>;
  message: string;
}

interface GateFailure {
  step: StageName;
  kind: 'rejected' | 'unavailable';
  reason: string;
}

/** Weighted mean of the stage scores, or null when one is missing. Pure. */
export function combinedScore(
  stages: Record<StageName, StageOutcome>,
  weights: OrchestratorConfig['weights'],
): number | null {
  let sum = 0;
  let total = 0;
  for (const name of STAGES) {
    const score = stages[name].score;
    if (score === null) return null;
    sum += weights[name] * score;
    total += weights[name];
  }
  return total > 0 ? Math.round((sum / total) * 1e4) / 1e4 : null;
}

function gateOf(name: StageName, outcome: StageOutcome, minScore: number): GateFailure | undefined {
  if (outcome.status === 'TIMEOUT' || outcome.status === 'ERROR') {
    return { step: name, kind: 'unavailable', reason: outcome.reason ?? 'stage_unavailable' };
  }
  if (outcome.status === 'REJECTED')
    return { step: name, kind: 'rejected', reason: outcome.reason ?? 'stage_rejected' };
  if (outcome.score !== null && outcome.score < minScore)
    return { step: name, kind: 'rejected', reason: 'below_min_score' };
  return undefined;
}

/**
 * Run liveness then face matching under the configuration's gating, timeouts and retries, and decide.
 * A definite rejection outranks an unavailable stage; with every gate passed the combined score and the REVIEW band
 * decide. Stage functions are inputs so each rule can be tested without models.
 */
export async function runPipeline(
  run: Record<StageName, StageFunction>,
  config: OrchestratorConfig,
): Promise<PipelineOutcome> {
  const backoff = {
    initialMs: config.retry.backoff_ms,
    multiplier: config.retry.backoff_multiplier,
    maxMs: config.retry.max_backoff_ms,
  };
  const stages = {} as Record<StageName, StageOutcome>;
  const failures: GateFailure[] = [];
  for (const name of STAGES) {
    const limits = config.stages[name];
    if (failures.length > 0 && config.gating.fail_fast) {
      stages[name] = {
        status: 'SKIPPED',
        score: null,
        attempts: 0,
        latency_ms: 0,
        message: `Skipped: ${failures[0]!.step} did not pass.`,
        reason: 'gate_failed',
      };
      continue;
    }
    const outcome = await runStage(run[name], {
      timeoutMs: limits.timeout_ms,
      retries: limits.retries,
      backoff,
    });
    stages[name] = outcome;
    const failure = gateOf(name, outcome, limits.min_score);
    if (failure) failures.push(failure);
  }
  const combined = combinedScore(stages, config.weights);
  const rejected = failures.find((failure) => failure.kind === 'rejected');
  if (rejected) {
    return {
      decision: 'REJECTED',
      failed_step: rejected.step,
      reason: rejected.reason,
      combined_score: combined,
      stages,
      message: `Rejected at ${rejected.step} (${rejected.reason}).`,
    };
  }
  const unavailable = failures[0];
  if (unavailable) {
    const decision = config.gating.on_unavailable;
    return {
      decision,
      failed_step: unavailable.step,
      reason: unavailable.reason,
      combined_score: combined,
      stages,
      message: `The ${unavailable.step} stage produced no result (${unavailable.reason}); decision ${decision}.`,
    };
  }
  if (combined === null) {
    // Unreachable with every gate passed (every stage has a score); kept so a future stage cannot approve silently.
    return {
      decision: 'REVIEW',
      failed_step: null,
      reason: 'score_missing',
      combined_score: null,
      stages,
      message: 'A stage score is missing.',
    };
  }
  if (combined >= config.decision.approve_at) {
    return {
      decision: 'APPROVED',
      failed_step: null,
      reason: null,
      combined_score: combined,
      stages,
      message: 'Liveness and face match passed.',
    };
  }
  if (combined >= config.decision.review_from) {
    return {
      decision: 'REVIEW',
      failed_step: null,
      reason: 'review_band',
      combined_score: combined,
      stages,
      message: 'The combined score falls in the review band.',
    };
  }
  return {
    decision: 'REJECTED',
    failed_step: 'combined',
    reason: 'combined_below_threshold',
    combined_score: combined,
    stages,
    message: 'The combined score is below the review band.',
  };
}
