import { Type } from '@sinclair/typebox';
import { base64Image } from '../schemas.js';

/** TypeBox schemas of the OCR sub-service (they feed /openapi.json). */

/** Document types a caller may announce and the service answers. */
export const DOCUMENT_TYPES = ['passport', 'id_card', 'visa', 'driver_licence', 'unknown'] as const;

/** JSON body of POST /docs/ocr/api/extract. */
export const ExtractBody = Type.Object({
  image: base64Image('Document photo or scan'),
  document_type: Type.Optional(
    Type.String({
      description: `Expected type, one of ${DOCUMENT_TYPES.join(', ')}: a hint when no MRZ decides it (400 for anything else).`,
    }),
  ),
});

const Field = Type.Object(
  {
    value: Type.String({
      description: 'Dates are ISO 8601 (YYYY-MM-DD); sex M, F or X; countries ICAO 3-letter codes.',
    }),
    source: Type.Union([Type.Literal('mrz'), Type.Literal('printed'), Type.Literal('barcode')]),
    confidence: Type.Number({ description: '0–1. MRZ values under a valid check digit are 0.99.' }),
  },
  { additionalProperties: false },
);

const fieldNames = [
  'surname',
  'given_names',
  'document_number',
  'nationality',
  'date_of_birth',
  'sex',
  'expiry_date',
  'issuing_country',
  'licence_class',
  'address',
];

const Check = Type.Object({ name: Type.String(), valid: Type.Boolean() });

/** The answer of POST /docs/ocr/api/extract (200 also when nothing was found: empty fields and a message). */
export const ExtractResult = Type.Object(
  {
    document_type: Type.Union(DOCUMENT_TYPES.map((t) => Type.Literal(t))),
    fields: Type.Object(Object.fromEntries(fieldNames.map((n) => [n, Type.Optional(Field)]))),
    mrz: Type.Union([
      Type.Object({
        format: Type.String({
          description: 'TD1, TD2, TD3, MRVA, MRVB or FRENCH_ID (the French national ID card, 2×36).',
        }),
        lines: Type.Array(Type.String()),
        valid: Type.Boolean({
          description: 'Every check holds: check digits, country codes, dates and the document code.',
        }),
        checks: Type.Array(Check, {
          description:
            'Each check and its outcome: the check digits (`…CheckDigit`), the country codes against the ICAO list (`…Code`), the dates against the calendar (`…Calendar`) and the document code against the format (`documentCode`).',
        }),
        countries: Type.Array(
          Type.Object({ name: Type.String(), code: Type.String(), valid: Type.Boolean() }),
          {
            description:
              'Issuing state and nationality against the ICAO list (check digits do not cover them).',
          },
        ),
        confidence: Type.Number(),
      }),
      Type.Null(),
    ]),
    cross_check: Type.Array(
      Type.Object({
        field: Type.String(),
        mrz: Type.String(),
        printed: Type.Union([Type.String(), Type.Null()]),
        status: Type.Union([Type.Literal('match'), Type.Literal('mismatch'), Type.Literal('not_found')]),
      }),
      {
        description:
          'Printed (visual-zone) values compared with the MRZ; `mismatch` flags a close but different printed value.',
      },
    ),
    message: Type.String(),
    ms: Type.Number(),
  },
  { additionalProperties: true },
);
