import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './config.js';
import { buildVerificationEvent, VerificationEventSchema } from './event.js';
import { runPipeline } from './pipeline.js';
import { safeReference } from './reference.js';

// TypeBox checks no string formats by default; these are the two the event schema uses (as OpenAPI readers apply them).
FormatRegistry.Set('uuid', (value) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
);
FormatRegistry.Set(
  'date-time',
  (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) && !Number.isNaN(Date.parse(value)),
);

describe('verification event', () => {
  it('matches its published JSON Schema, with a fresh UUID, the masked reference and no image field', async () => {
    // Stage functions are the orchestrator's inputs; one times out so null scores and reasons are covered.
    const outcome = await runPipeline(
      {
        liveness: () =>
          Promise.resolve({
            status: 'SUCCESS',
            score: 0.9,
            message: 'ok',
            extra: { raw_score: 0.97, threshold: 0.5 },
          }),
        face_match: () => new Promise(() => undefined),
      },
      {
        ...DEFAULT_CONFIG,
        stages: { ...DEFAULT_CONFIG.stages, face_match: { timeout_ms: 20, retries: 0, min_score: 0.5 } },
      },
    );
    const input = {
      outcome,
      config: DEFAULT_CONFIG,
      requestId: 'req-1',
      reference: safeReference('jane@example.org'),
      modelVersions: { fr_feature: 'pkg@1 sha256:abc' },
    };
    const event = buildVerificationEvent(input);
    expect([...Value.Errors(VerificationEventSchema, event)].map((e) => `${e.path} ${e.message}`)).toEqual(
      [],
    );
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(buildVerificationEvent(input).id).not.toBe(event.id);
    expect(event).toMatchObject({
      decision: 'REVIEW',
      failed_step: 'face_match',
      reason: 'stage_timeout',
      reference: 'ja************rg',
      reference_masked: true,
    });
    expect(event.scores).toEqual({ combined: null, liveness: 0.9, face_match: null });
    expect(JSON.stringify(event)).not.toMatch(/selfie|id_card|base64|jane@/);
  });
});
