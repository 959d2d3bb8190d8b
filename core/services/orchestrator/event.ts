import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { OrchestratorConfig } from './config.js';
import type { PipelineOutcome } from './pipeline.js';
import type { SafeReference } from './reference.js';

/** Subject of orchestrator verification events (captured by the stream's `idv.events.>`). */
export const VERIFICATION_SUBJECT = 'idv.events.orchestrator.verification';
/** The event `type` field. */
export const VERIFICATION_EVENT_TYPE = 'idv.orchestrator.verification';

const Nullable = <T extends ReturnType<typeof Type.Number> | ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const StageEventSchema = Type.Object({
  status: Type.Union(['SUCCESS', 'REJECTED', 'TIMEOUT', 'ERROR', 'SKIPPED'].map((s) => Type.Literal(s))),
  score: Nullable(Type.Number()),
  attempts: Type.Integer({ minimum: 0 }),
  latency_ms: Type.Number({ minimum: 0 }),
  reason: Type.Optional(Type.String()),
  raw_score: Type.Optional(Type.Number({ description: "The engine's score before normalisation." })),
  engine_threshold: Type.Optional(
    Type.Number({ description: 'The threshold the engine decided with (raw scale).' }),
  ),
});

/** JSON Schema of an orchestrator verification event (OpenAPI component `OrchestratorVerificationEvent`). */
export const VerificationEventSchema = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'Stable event id: JetStream msgID; de-duplicate on it (at-least-once).',
    }),
    type: Type.Literal(VERIFICATION_EVENT_TYPE),
    schema_version: Type.Literal(1),
    time: Type.String({ format: 'date-time', description: 'When the decision was made.' }),
    request_id: Type.String({ description: 'The HTTP request id (also in the audit log).' }),
    reference: Nullable(
      Type.String({ description: "The caller's reference; masked when it looks like personal data." }),
    ),
    reference_masked: Type.Boolean(),
    decision: Type.Union([Type.Literal('APPROVED'), Type.Literal('REJECTED'), Type.Literal('REVIEW')]),
    failed_step: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    scores: Type.Object({
      combined: Nullable(Type.Number()),
      liveness: Nullable(Type.Number()),
      face_match: Nullable(Type.Number()),
    }),
    stages: Type.Object({ liveness: StageEventSchema, face_match: StageEventSchema }),
    thresholds: Type.Object({
      approve_at: Type.Number(),
      review_from: Type.Number(),
      min_scores: Type.Object({ liveness: Type.Number(), face_match: Type.Number() }),
      weights: Type.Object({ liveness: Type.Number(), face_match: Type.Number() }),
    }),
    model_versions: Type.Record(Type.String(), Type.String(), {
      description: 'Versions of the models that scored.',
    }),
  },
  {
    $id: 'OrchestratorVerificationEvent',
    additionalProperties: false,
    description: 'Published to idv.events.orchestrator.verification; never carries an image.',
  },
);

/** An orchestrator verification event. */
export type VerificationEvent = Static<typeof VerificationEventSchema>;

/** What the event is built from. */
export interface EventInput {
  outcome: PipelineOutcome;
  config: OrchestratorConfig;
  requestId: string;
  reference: SafeReference | null;
  modelVersions: Record<string, string>;
}

/** Build the event of one decision, with a fresh UUID. Pure apart from the id and clock. */
export function buildVerificationEvent(input: EventInput): VerificationEvent {
  const { outcome, config } = input;
  const stage = (name: 'liveness' | 'face_match') => {
    const s = outcome.stages[name];
    return {
      status: s.status,
      score: s.score,
      attempts: s.attempts,
      latency_ms: s.latency_ms,
      ...(s.reason === undefined ? {} : { reason: s.reason }),
      ...(s.raw_score === undefined ? {} : { raw_score: s.raw_score }),
      ...(s.engine_threshold === undefined ? {} : { engine_threshold: s.engine_threshold }),
    };
  };
  return {
    id: randomUUID(),
    type: VERIFICATION_EVENT_TYPE,
    schema_version: 1,
    time: new Date().toISOString(),
    request_id: input.requestId,
    reference: input.reference?.value ?? null,
    reference_masked: input.reference?.masked ?? false,
    decision: outcome.decision,
    failed_step: outcome.failed_step,
    reason: outcome.reason,
    scores: {
      combined: outcome.combined_score,
      liveness: outcome.stages.liveness.score,
      face_match: outcome.stages.face_match.score,
    },
    stages: { liveness: stage('liveness'), face_match: stage('face_match') },
    thresholds: {
      approve_at: config.decision.approve_at,
      review_from: config.decision.review_from,
      min_scores: {
        liveness: config.stages.liveness.min_score,
        face_match: config.stages.face_match.min_score,
      },
      weights: { ...config.weights },
    },
    model_versions: { ...input.modelVersions },
  };
}
