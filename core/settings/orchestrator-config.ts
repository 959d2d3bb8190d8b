/**
 * The orchestrator's configuration as a setting (`orchestrator.config`): its schema, defaults and the rules across
 * fields the schema cannot state. The orchestrator (core/services/orchestrator) edits it; the settings module reads it.
 */
import { Type, type Static } from '@sinclair/typebox';

/** The orchestrator's stages, in the order they run. */
export const STAGES = ['liveness', 'face_match'] as const;
/** A stage name. */
export type StageName = (typeof STAGES)[number];

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

/** One stage's settings. */
export const StageConfigSchema = Type.Object(
  {
    /** Budget of the whole stage (every attempt and backoff), in ms; past it the stage is TIMEOUT. */
    timeout_ms: Type.Integer({
      minimum: 10,
      maximum: 120_000,
      description: 'Whole-stage budget (all attempts) in ms; past it the stage is TIMEOUT.',
    }),
    /** Extra attempts after a transient failure (OVERLOADED, RATE_LIMITED, internal error); 0 = no retry. */
    retries: Type.Integer({
      minimum: 0,
      maximum: 5,
      description: 'Retries after a transient failure (never after a REJECTED result).',
    }),
    /** Minimum stage score: below it the stage fails its gate even when the engine said SUCCESS. */
    min_score: Score('Stage score floor: below it the decision is REJECTED at this stage.'),
  },
  { additionalProperties: false },
);

/** The whole orchestrator configuration (stored under the setting `orchestrator.config`). */
export const OrchestratorConfigSchema = Type.Object(
  {
    /** Weights of each stage's score in the combined score; normalised by their sum, which must be > 0. */
    weights: Type.Object(
      {
        /** Weight of the liveness score. */
        liveness: Type.Number({ minimum: 0, maximum: 100, description: 'Weight of the liveness score.' }),
        /** Weight of the face-match score. */
        face_match: Type.Number({ minimum: 0, maximum: 100, description: 'Weight of the face-match score.' }),
      },
      { additionalProperties: false, description: 'Combined score = sum(weight * score) / sum(weight).' },
    ),
    /** Decision band on the combined score, applied once every stage passed its gate. */
    decision: Type.Object(
      {
        /** Combined score at or above which the decision is APPROVED. */
        approve_at: Score('Combined score at or above which the decision is APPROVED.'),
        /** Combined score at or above which (and below approve_at) the decision is REVIEW; below it REJECTED. */
        review_from: Score('Lower edge of the REVIEW band; below it the decision is REJECTED.'),
      },
      { additionalProperties: false },
    ),
    /** Per-stage timeout, retries and minimum score. */
    stages: Type.Object(
      { liveness: StageConfigSchema, face_match: StageConfigSchema },
      { additionalProperties: false },
    ),
    /** Backoff between retries of a transient failure. */
    retry: Type.Object(
      {
        /** Delay before the first retry, in ms. */
        backoff_ms: Type.Integer({
          minimum: 0,
          maximum: 10_000,
          description: 'Delay before the first retry, in ms.',
        }),
        /** Factor applied to the delay after each retry. */
        backoff_multiplier: Type.Number({
          minimum: 1,
          maximum: 10,
          description: 'Growth factor of the delay.',
        }),
        /** Upper bound of one delay, in ms. */
        max_backoff_ms: Type.Integer({
          minimum: 0,
          maximum: 60_000,
          description: 'Upper bound of one delay, in ms.',
        }),
      },
      { additionalProperties: false },
    ),
    /** Gating rules. */
    gating: Type.Object(
      {
        /** true: a stage failing its gate ends the run and later stages are SKIPPED (liveness must pass before face matching runs). false: every stage runs, the decision is still REJECTED. */
        fail_fast: Type.Boolean({
          description: 'Liveness must pass before face matching runs; later stages are SKIPPED.',
        }),
        /** Decision when a stage could not produce a result (TIMEOUT or ERROR after retries). */
        on_unavailable: Type.Union([Type.Literal('REVIEW'), Type.Literal('REJECTED')], {
          description: 'Decision when a stage ends TIMEOUT or ERROR.',
        }),
      },
      { additionalProperties: false },
    ),
    /** Days an event stays in the outbox (and the LAN feed) before it is pruned; 0 keeps every event. */
    outbox_retention_days: Type.Integer({
      minimum: 0,
      maximum: 3650,
      description:
        'Days an event stays in the outbox and the LAN feed. With a broker configured only published events are pruned. 0 = keep forever.',
    }),
    /** NATS URL used when neither `--queue` nor IDV_QUEUE_URL is given; null = no broker (LAN feed only). */
    queue_url: Type.Union([Type.String({ pattern: '^(nats|tls)://[^\\s]+$', maxLength: 512 }), Type.Null()], {
      description: 'NATS JetStream URL (nats://host:4222) used when --queue / IDV_QUEUE_URL are not given.',
    }),
  },
  { additionalProperties: false },
);

/** The orchestrator configuration. */
export type OrchestratorConfig = Static<typeof OrchestratorConfigSchema>;

/** A nested partial configuration, for `setConfig`. */
export type ConfigPatch = {
  [K in keyof OrchestratorConfig]?: OrchestratorConfig[K] extends Record<string, unknown>
    ? { [L in keyof OrchestratorConfig[K]]?: Partial<OrchestratorConfig[K][L]> }
    : OrchestratorConfig[K];
};

/** Defaults: face match weighs more than liveness; 20 s per stage because inference shares 2 cores with the UI. */
export const DEFAULT_CONFIG: OrchestratorConfig = {
  weights: { liveness: 0.4, face_match: 0.6 },
  decision: { approve_at: 0.7, review_from: 0.55 },
  stages: {
    liveness: { timeout_ms: 20_000, retries: 2, min_score: 0.5 },
    face_match: { timeout_ms: 20_000, retries: 2, min_score: 0.5 },
  },
  retry: { backoff_ms: 200, backoff_multiplier: 2, max_backoff_ms: 2_000 },
  gating: { fail_fast: true, on_unavailable: 'REVIEW' },
  outbox_retention_days: 90,
  queue_url: null,
};

/** The first rule across fields a schema-valid configuration breaks, or undefined. */
export function orchestratorConfigProblem(
  config: OrchestratorConfig,
): { field: string; message: string } | undefined {
  if (config.weights.liveness + config.weights.face_match <= 0)
    return { field: 'weights', message: 'The stage weights must not all be zero.' };
  if (config.decision.review_from > config.decision.approve_at)
    return {
      field: 'decision.review_from',
      message: 'decision.review_from must not exceed decision.approve_at.',
    };
  if (config.retry.max_backoff_ms < config.retry.backoff_ms)
    return {
      field: 'retry.max_backoff_ms',
      message: 'retry.max_backoff_ms must be at least retry.backoff_ms.',
    };
  return undefined;
}

/** True for a JSON object (not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Merge `patch` into `base` recursively (objects merge, everything else replaces). */
export function mergeConfig(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) merged[key] = mergeConfig(base[key], value);
  return merged;
}
