import { Type } from '@sinclair/typebox';

/** TypeBox schemas of the ID-card security-feature routes; they feed /openapi.json. */

const Region = Type.Union([
  Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() }),
  Type.Null(),
]);

/** One detector's outcome. */
export const FeatureResultSchema = Type.Object(
  {
    feature: Type.String({ description: 'mrz, ghost_portrait, reference_mark or pdf417' }),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    region: Region,
    ms: Type.Number({ description: 'Time the detector computed, in milliseconds.' }),
    details: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

/** POST /v1/verify success body. */
export const V1VerifySuccess = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    verification_score: Type.Number({ description: 'Score of the detected feature, 0-1.' }),
    feature_detected: Type.String({
      description: 'The security feature found: mrz, ghost_portrait, reference_mark or pdf417.',
    }),
    region: Region,
    profile: Type.String(),
    message: Type.String(),
    features: Type.Array(FeatureResultSchema),
  },
  { additionalProperties: true },
);

/** A document profile as the console edits it. */
export const ProfileSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,39}$' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    features: Type.Array(
      Type.Object({
        feature: Type.Union([
          Type.Literal('mrz'),
          Type.Literal('ghost_portrait'),
          Type.Literal('reference_mark'),
          Type.Literal('pdf417'),
        ]),
        min_score: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
      }),
      { minItems: 1 },
    ),
    reference_marks: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);
