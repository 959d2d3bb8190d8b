import { describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.js';
import type { StepResult } from '../../contracts/step-result.js';
import { DEFAULT_CONFIG, patchConfig, type OrchestratorConfig } from './config.js';
import { runPipeline } from './pipeline.js';
import type { StageFunction } from './stage-runner.js';

// Stage functions are the orchestrator's own inputs: these tests drive its rules, not an engine.
const pass =
  (score: number): StageFunction =>
  () =>
    Promise.resolve({ status: 'SUCCESS', score, message: 'passed' });
const reject =
  (score: number, reason: string): StageFunction =>
  () =>
    Promise.resolve({ status: 'REJECTED', score, message: 'failed', reason });

function counting(fn: StageFunction): { fn: StageFunction; calls: () => number } {
  let calls = 0;
  return {
    fn: () => {
      calls += 1;
      return fn();
    },
    calls: () => calls,
  };
}

function config(patch: unknown = {}): OrchestratorConfig {
  const fast = { retry: { backoff_ms: 5, backoff_multiplier: 2, max_backoff_ms: 20 } };
  return patchConfig(patchConfig(DEFAULT_CONFIG, fast), patch);
}

describe('gating', () => {
  it('skips face matching when liveness fails and fail_fast is on', async () => {
    const match = counting(pass(0.95));
    const outcome = await runPipeline(
      { liveness: reject(0.1, 'presentation_attack'), face_match: match.fn },
      config(),
    );
    expect(match.calls()).toBe(0);
    expect(outcome.stages.face_match.status).toBe('SKIPPED');
    expect(outcome.decision).toBe('REJECTED');
    expect(outcome.failed_step).toBe('liveness');
    expect(outcome.reason).toBe('presentation_attack');
    expect(outcome.combined_score).toBeNull();
  });

  it('still runs face matching with fail_fast off, and still rejects', async () => {
    const match = counting(pass(0.95));
    const outcome = await runPipeline(
      { liveness: reject(0.1, 'presentation_attack'), face_match: match.fn },
      config({ gating: { fail_fast: false } }),
    );
    expect(match.calls()).toBe(1);
    expect(outcome.stages.face_match.status).toBe('SUCCESS');
    expect(outcome.decision).toBe('REJECTED');
    expect(outcome.combined_score).toBeCloseTo(0.4 * 0.1 + 0.6 * 0.95, 4);
  });

  it('rejects a stage the engine passed when its score is below the configured minimum', async () => {
    const lenient = await runPipeline({ liveness: pass(0.62), face_match: pass(0.95) }, config());
    expect(lenient.decision).toBe('APPROVED');
    const strict = await runPipeline(
      { liveness: pass(0.62), face_match: pass(0.95) },
      config({ stages: { liveness: { min_score: 0.7 } } }),
    );
    expect(strict.decision).toBe('REJECTED');
    expect(strict.failed_step).toBe('liveness');
    expect(strict.reason).toBe('below_min_score');
  });
});

describe('weights and the review band', () => {
  const stages = { liveness: pass(0.95), face_match: pass(0.6) };

  it('weights decide between APPROVED, REVIEW and REJECTED', async () => {
    const band = { decision: { approve_at: 0.8, review_from: 0.65 } };
    const livenessHeavy = await runPipeline(
      stages,
      config({ ...band, weights: { liveness: 0.9, face_match: 0.1 } }),
    );
    expect(livenessHeavy.combined_score).toBeCloseTo(0.915, 4);
    expect(livenessHeavy.decision).toBe('APPROVED');
    const balanced = await runPipeline(stages, config({ ...band, weights: { liveness: 1, face_match: 1 } }));
    expect(balanced.combined_score).toBeCloseTo(0.775, 4);
    expect(balanced.decision).toBe('REVIEW');
    expect(balanced.reason).toBe('review_band');
    const matchHeavy = await runPipeline(
      stages,
      config({ ...band, weights: { liveness: 0, face_match: 1 } }),
    );
    expect(matchHeavy.combined_score).toBeCloseTo(0.6, 4);
    expect(matchHeavy.decision).toBe('REJECTED');
    expect(matchHeavy.failed_step).toBe('combined');
  });
});

describe('timeouts', () => {
  it('ends a stage that exceeds its budget as TIMEOUT without hanging the request', async () => {
    const never: StageFunction = () => new Promise<StepResult>(() => undefined);
    const started = performance.now();
    const outcome = await runPipeline(
      { liveness: never, face_match: pass(0.9) },
      config({ stages: { liveness: { timeout_ms: 150 } } }),
    );
    const elapsed = performance.now() - started;
    expect(outcome.stages.liveness.status).toBe('TIMEOUT');
    expect(outcome.stages.liveness.reason).toBe('stage_timeout');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2000);
    expect(outcome.stages.face_match.status).toBe('SKIPPED');
    expect(outcome.decision).toBe('REVIEW');
    expect(outcome.failed_step).toBe('liveness');
  });

  it('maps an unavailable stage to the configured decision', async () => {
    const slow: StageFunction = () =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolve({ status: 'SUCCESS', score: 0.9, message: 'late' });
        }, 400),
      );
    const outcome = await runPipeline(
      { liveness: pass(0.9), face_match: slow },
      config({ stages: { face_match: { timeout_ms: 100 } }, gating: { on_unavailable: 'REJECTED' } }),
    );
    expect(outcome.stages.face_match.status).toBe('TIMEOUT');
    expect(outcome.decision).toBe('REJECTED');
  });
});

describe('retries', () => {
  function flaky(failures: number, error: () => Error): ReturnType<typeof counting> {
    let left = failures;
    return counting(() => {
      if (left > 0) {
        left -= 1;
        return Promise.reject(error());
      }
      return Promise.resolve({ status: 'SUCCESS', score: 0.9, message: 'ok' });
    });
  }
  const overloaded = (): Error => new CoreError('OVERLOADED', 'busy');

  it('retries transient failures with backoff and reports the attempts', async () => {
    const liveness = flaky(2, overloaded);
    const started = performance.now();
    const outcome = await runPipeline(
      { liveness: liveness.fn, face_match: pass(0.9) },
      config({ stages: { liveness: { retries: 2 } } }),
    );
    expect(liveness.calls()).toBe(3);
    expect(outcome.stages.liveness).toMatchObject({ status: 'SUCCESS', attempts: 3 });
    // Backoff 5 ms then 10 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(14);
    expect(outcome.decision).toBe('APPROVED');
  });

  it('gives up after the configured retries with ERROR', async () => {
    const liveness = flaky(5, overloaded);
    const outcome = await runPipeline(
      { liveness: liveness.fn, face_match: pass(0.9) },
      config({ stages: { liveness: { retries: 1 } } }),
    );
    expect(liveness.calls()).toBe(2);
    expect(outcome.stages.liveness).toMatchObject({
      status: 'ERROR',
      attempts: 2,
      reason: 'engine_overloaded',
    });
    expect(outcome.decision).toBe('REVIEW');
  });

  it('never retries a REJECTED result', async () => {
    const liveness = counting(reject(0.2, 'presentation_attack'));
    await runPipeline(
      { liveness: liveness.fn, face_match: pass(0.9) },
      config({ stages: { liveness: { retries: 3 } } }),
    );
    expect(liveness.calls()).toBe(1);
  });

  it('propagates bad input (a 4xx CoreError) instead of retrying it', async () => {
    const liveness = flaky(1, () => new CoreError('IMAGE_UNSUPPORTED', 'not an image', { field: 'selfie' }));
    await expect(
      runPipeline({ liveness: liveness.fn, face_match: pass(0.9) }, config()),
    ).rejects.toMatchObject({
      code: 'IMAGE_UNSUPPORTED',
    });
    expect(liveness.calls()).toBe(1);
  });
});
