import { Type } from '@sinclair/typebox';
import { base64Image } from '../schemas.js';

/** Schemas of the fingerprint routes (they feed /openapi.json); bodies are checked by intake.ts. */
const mobile = Type.String({
  description: 'Mobile number with country code, e.g. 447911123456 (normalised to E.164).',
});

const likeness = Type.Number({
  description:
    'How much the image looks like a fingerprint, 0-100 (50 and above passes; below, enrollment answers 422 NOT_A_FINGERPRINT and verification REJECTED with reason not_a_fingerprint).',
});

export const EnrollSuccess = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    message: Type.String(),
    quality_score: Type.Number({ description: 'Image quality 0-100.' }),
    fingerprint_likeness: Type.Optional(likeness),
    minutiae_count: Type.Integer(),
    model_version: Type.String({ description: 'Fingerprint model that made the template.' }),
    replaced: Type.Boolean({ description: 'True when an earlier enrollment of the number was replaced.' }),
    duplicate_of: Type.Optional(
      Type.String({
        description:
          'Masked number already enrolled with this finger (de-duplication flag), e.g. +4479*****123.',
      }),
    ),
    duplicate_score: Type.Optional(Type.Number()),
  },
  { additionalProperties: true },
);

export const VerifySuccess = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    mobile_number: Type.String(),
    score: Type.Number(),
    threshold: Type.Number({ description: 'Decision threshold (score at the configured false-match rate).' }),
    estimated_fmr: Type.Number({ description: 'Estimated false-match rate at this score.' }),
    fingerprint_likeness: Type.Optional(likeness),
    message: Type.String(),
  },
  { additionalProperties: true },
);

export const SearchSuccess = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    candidates: Type.Array(
      Type.Object(
        {
          mobile_number: Type.String(),
          score: Type.Number(),
          estimated_fmr: Type.Number(),
          match: Type.Boolean({ description: 'Score at or above the 1:1 decision threshold.' }),
        },
        { additionalProperties: true },
      ),
    ),
    threshold: Type.Number(),
    gallery_size: Type.Integer(),
  },
  { additionalProperties: true },
);

export const EnrollmentInfoBody = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    mobile_number: Type.String(),
    model_version: Type.String(),
    quality_score: Type.Number(),
    minutiae_count: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
    reenrollment_required: Type.Boolean(),
  },
  { additionalProperties: true },
);

export const DeleteSuccess = Type.Object(
  { status: Type.Literal('SUCCESS'), message: Type.String(), deleted: Type.Boolean() },
  { additionalProperties: true },
);

export const JsonEnrollBody = Type.Object(
  { mobile_number: mobile, image: base64Image('Fingerprint image') },
  { required: ['mobile_number', 'image'] },
);

export const JsonSearchBody = Type.Object(
  {
    image: base64Image('Fingerprint image'),
    k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
  },
  { required: ['image'] },
);

export const MobileParams = Type.Object({ mobile: mobile });
