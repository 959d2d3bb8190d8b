import { isCoreError } from '../../errors.js';
import type { StepResult } from '../../contracts/step-result.js';
import { backoffDelay, sleep, type BackoffPolicy } from '../outbox/backoff.js';

/** What became of one stage. SKIPPED: a gate failed earlier; TIMEOUT: the budget ran out; ERROR: transient failures outlasted the retries. */
export type StageStatus = 'SUCCESS' | 'REJECTED' | 'TIMEOUT' | 'ERROR' | 'SKIPPED';

/** One stage's result as reported in the response and the event. */
export interface StageOutcome {
  status: StageStatus;
  /** The engine's score in [0,1]; null when the stage produced none. */
  score: number | null;
  /** Calls made to the engine (0 when skipped). */
  attempts: number;
  /** Wall time of the stage including retries and backoff, in ms. */
  latency_ms: number;
  message: string;
  /** Machine-readable reason: the engine's on REJECTED, else stage_timeout, engine_overloaded, engine_error, gate_failed. */
  reason?: string;
  /** The engine's own score before normalisation (e.g. cosine similarity for face matching). */
  raw_score?: number;
  /** The threshold the engine decided with, on its raw scale. */
  engine_threshold?: number;
}

/** A stage's work: one call to an engine. The orchestrator's input, so rules can be tested without models. */
export type StageFunction = () => Promise<StepResult>;

/** Limits of one stage run. */
export interface StageLimits {
  /** Budget of the whole stage in ms. */
  timeoutMs: number;
  /** Retries after a transient failure. */
  retries: number;
  backoff: BackoffPolicy;
}

const TRANSIENT_CODES = new Set(['OVERLOADED', 'ENGINE_UNAVAILABLE', 'RATE_LIMITED', 'INTERNAL']);

/** A failure worth retrying: overload, a lost worker, rate limit, or an unexpected (non-CoreError) exception. Bad input is not. */
export function isTransient(error: unknown): boolean {
  return isCoreError(error) ? TRANSIENT_CODES.has(error.code) : true;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Run a stage within its budget, retrying transient failures with backoff. A REJECTED result is final (never
 * retried). A call still running at the deadline is abandoned (engines cannot be cancelled) and the stage is
 * TIMEOUT. A non-transient CoreError (bad input, 4xx) propagates to the caller.
 */
export async function runStage(run: StageFunction, limits: StageLimits): Promise<StageOutcome> {
  const started = performance.now();
  const deadline = started + limits.timeoutMs;
  const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
  let attempts = 0;
  let lastError: unknown;
  for (;;) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      return {
        status: 'TIMEOUT',
        score: null,
        attempts,
        latency_ms: elapsed(),
        message: `No result within ${limits.timeoutMs} ms.`,
        reason: 'stage_timeout',
      };
    }
    attempts += 1;
    const call = Promise.resolve().then(run);
    // The abandoned call may still settle later; swallow it so it is not an unhandled rejection.
    call.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => {
        resolve(TIMED_OUT);
      }, remaining);
    });
    try {
      const result = await Promise.race([call, timeout]);
      if (result === TIMED_OUT) {
        return {
          status: 'TIMEOUT',
          score: null,
          attempts,
          latency_ms: elapsed(),
          message: `No result within ${limits.timeoutMs} ms.`,
          reason: 'stage_timeout',
        };
      }
      return fromStep(result, attempts, elapsed());
    } catch (error) {
      if (!isTransient(error)) throw error;
      lastError = error;
    } finally {
      clearTimeout(timer);
    }
    if (attempts > limits.retries) break;
    await sleep(Math.min(backoffDelay(limits.backoff, attempts), Math.max(0, deadline - performance.now())));
  }
  const overloaded = isCoreError(lastError) && lastError.code !== 'INTERNAL';
  return {
    status: 'ERROR',
    score: null,
    attempts,
    latency_ms: elapsed(),
    message: overloaded
      ? 'The engine stayed overloaded through every retry.'
      : 'The engine failed on every attempt.',
    reason: overloaded ? 'engine_overloaded' : 'engine_error',
  };
}

function fromStep(step: StepResult, attempts: number, latency: number): StageOutcome {
  if (!Number.isFinite(step.score) || step.score < 0 || step.score > 1) {
    return {
      status: 'ERROR',
      score: null,
      attempts,
      latency_ms: latency,
      message: 'The engine returned a score outside [0,1].',
      reason: 'invalid_score',
    };
  }
  const outcome: StageOutcome = {
    status: step.status,
    // A placeholder score (nothing was compared) is reported as none.
    score: step.extra?.no_score === true ? null : step.score,
    attempts,
    latency_ms: latency,
    message: step.message,
  };
  if (step.reason !== undefined) outcome.reason = step.reason;
  const raw = step.extra?.raw_score;
  const threshold = step.extra?.threshold;
  if (typeof raw === 'number') outcome.raw_score = raw;
  if (typeof threshold === 'number') outcome.engine_threshold = threshold;
  return outcome;
}
