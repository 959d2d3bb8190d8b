import { Type } from '@sinclair/typebox';
import { MAX_WAIT_MS } from '../../services/outbox/event-feed.js';
import { OrchestratorConfigSchema } from '../../services/orchestrator/config.js';
import { MAX_REFERENCE_LENGTH } from '../../services/orchestrator/reference.js';
import { base64Image } from '../schemas.js';

/** TypeBox schemas of the orchestrator routes (they feed /openapi.json). */

/** JSON body of POST /docs/orchestrator/api/verify. */
export const OrchestratorVerifyBody = Type.Object({
  selfie: base64Image('Selfie (liveness runs on it, then it is matched to the card portrait)'),
  id_card: base64Image('ID-card photo'),
  reference: Type.Optional(
    Type.String({
      maxLength: MAX_REFERENCE_LENGTH,
      description:
        'Your correlation string (printable ASCII). Stored and published verbatim unless it looks like personal data (an @, or 6+ digits): then masked to its first and last two characters.',
    }),
  ),
});

const Stage = Type.Object(
  {
    status: Type.Union(['SUCCESS', 'REJECTED', 'TIMEOUT', 'ERROR', 'SKIPPED'].map((s) => Type.Literal(s))),
    score: Type.Union([Type.Number(), Type.Null()], {
      description: "Normalised score in [0,1]: the engine's own threshold maps to 0.5.",
    }),
    raw_score: Type.Optional(
      Type.Number({ description: "The engine's score (liveness probability; face cosine similarity)." }),
    ),
    engine_threshold: Type.Optional(Type.Number()),
    attempts: Type.Integer(),
    latency_ms: Type.Number(),
    message: Type.String(),
    reason: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** The synchronous verification answer (HTTP 200 for every decision). */
export const OrchestratorVerifyResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('SUCCESS'), Type.Literal('REJECTED'), Type.Literal('REVIEW')], {
      description: 'SUCCESS when APPROVED.',
    }),
    decision: Type.Union([Type.Literal('APPROVED'), Type.Literal('REJECTED'), Type.Literal('REVIEW')]),
    message: Type.String(),
    combined_score: Type.Union([Type.Number(), Type.Null()], {
      description: 'sum(weight * score) / sum(weight); null when a stage gave no score.',
    }),
    step: Type.Optional(
      Type.String({ description: 'liveness, face_match or combined: what decided a REJECTED/REVIEW.' }),
    ),
    score: Type.Optional(Type.Number()),
    reason: Type.Optional(
      Type.String({
        description: 'e.g. presentation_attack, no_match, below_min_score, stage_timeout, review_band',
      }),
    ),
    stages: Type.Object({ liveness: Stage, face_match: Stage }),
    thresholds: Type.Object({}, { additionalProperties: true }),
    event_id: Type.String({ format: 'uuid' }),
    request_id: Type.String(),
    reference: Type.Union([Type.String(), Type.Null()]),
    reference_masked: Type.Boolean(),
    model_versions: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: true },
);

const digits = (description: string, maxLength: number) =>
  Type.String({ pattern: '^[0-9]+$', maxLength, description });

/** Query of GET /docs/orchestrator/api/events (strings: the app does not coerce query types). */
export const EventsQuery = Type.Object({
  after: Type.Optional(digits('Cursor: the `cursor` of the previous page (0 = from the start).', 15)),
  limit: Type.Optional(digits('Events per page, 1-500 (default 100).', 3)),
  wait: Type.Optional(
    digits(`Seconds to wait when nothing is past the cursor, 0-${MAX_WAIT_MS / 1000} (default 25).`, 2),
  ),
});

/** Query of GET /docs/orchestrator/api/events/stream. */
export const StreamQuery = Type.Object({
  after: Type.Optional(
    digits('Replay from this cursor when there is no Last-Event-ID (default: only new events).', 15),
  ),
});

/** A page of the event feed. */
export const EventsPage = Type.Object({
  events: Type.Array(Type.Ref('OrchestratorVerificationEvent')),
  cursor: Type.Integer({ description: 'Pass as `after` next time.' }),
});

/** The config schema registered as a component. */
export const OrchestratorConfigComponent = Type.Object(OrchestratorConfigSchema.properties, {
  $id: 'OrchestratorConfig',
  additionalProperties: false,
});
