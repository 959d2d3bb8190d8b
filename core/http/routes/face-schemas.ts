import { Type } from '@sinclair/typebox';
import { base64Image } from '../schemas.js';

/** TypeBox schemas of the face routes (they feed /openapi.json). */

const Box = Type.Object(
  { x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() },
  { description: 'Face box in the pixels of the uploaded image (after EXIF orientation).' },
);

/** Face boxes used by a comparison (null when none was found). */
export const FaceBoxes = Type.Object({
  selfie: Type.Union([Box, Type.Null()]),
  id_card: Type.Union([Box, Type.Null()]),
});

const threshold = Type.Number({
  description: 'Similarity threshold the decision used (cosine similarity of the two embeddings).',
});

/** Successful comparison. */
export const MatchSuccess = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    score: Type.Number({
      description: 'Cosine similarity of the selfie and ID-card portrait embeddings, in [-1, 1].',
    }),
    threshold,
    estimated_fmr: Type.Number({
      description: 'Estimated false-match rate at this score (calibrated on LFW impostors).',
    }),
    message: Type.String(),
    faces: FaceBoxes,
  },
  { additionalProperties: true },
);

/** JSON body of /docs/face-matching/api/match. */
export const JsonMatchBody = Type.Object({
  selfie: base64Image('Selfie'),
  id_card: base64Image('ID-card photo'),
  threshold: Type.Optional(
    Type.Number({ description: 'Own similarity threshold for this request (bounded; 400 outside).' }),
  ),
});

/** JSON body with one image. */
export const JsonImageBody = Type.Object({ image: base64Image('Face image') });

/** Liveness answer. */
export const LivenessResult = Type.Object(
  {
    status: Type.Union([Type.Literal('SUCCESS'), Type.Literal('REJECTED')]),
    score: Type.Number({ description: 'Probability of a bona fide (live) face, in [0, 1].' }),
    threshold: Type.Number(),
    message: Type.String(),
    reason: Type.Optional(
      Type.String({
        description: 'When rejected: presentation_attack, or no_face_detected for an image without a face.',
      }),
    ),
  },
  { additionalProperties: true },
);

/** Quality report for live capture feedback. */
export const QualityResult = Type.Object(
  {
    status: Type.Union([Type.Literal('SUCCESS'), Type.Literal('REJECTED')]),
    passed: Type.Boolean(),
    reasons: Type.Array(Type.String(), {
      description: 'no_face, multiple_faces, face_too_small, too_blurred, too_dark, overexposed, eyes_closed',
    }),
    checks: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          passed: Type.Boolean(),
          value: Type.Number(),
          reason: Type.Optional(Type.String()),
        },
        { additionalProperties: true },
      ),
    ),
    face: Type.Union([Box, Type.Null()]),
    face_count: Type.Number(),
  },
  { additionalProperties: true },
);
