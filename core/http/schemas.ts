import { Type, type TSchema } from '@sinclair/typebox';
// Loads @fastify/swagger's schema typings (tags, summary, consumes, hide) for every route file.
import type { FastifyDynamicSwaggerOptions as _SwaggerOptions } from '@fastify/swagger';

/**
 * Shared TypeBox schemas. Response schemas allow additional properties: fast-json-stringify would otherwise
 * silently drop fields a route adds (scores, thresholds, boxes).
 */
export const ErrorBody = Type.Object(
  {
    status: Type.Literal('ERROR'),
    code: Type.String({ description: 'Machine-readable error code, e.g. FIELD_MISSING, IMAGE_UNSUPPORTED.' }),
    message: Type.String({ description: 'What went wrong, in words a developer can act on.' }),
    field: Type.Optional(Type.String({ description: 'The request field the error is about.' })),
    request_id: Type.Optional(
      Type.String({ description: 'Id of the request in the server log and audit trail.' }),
    ),
  },
  {
    $id: 'ErrorBody',
    additionalProperties: true,
    description:
      'The body of every 4xx and 5xx answer: status ERROR, a code, a message and the field concerned.',
  },
);

/** SPEC 2.4 rejection body, answered with HTTP 200, plus a machine-readable `reason`. */
export const RejectionBody = Type.Object(
  {
    step: Type.Union([
      Type.Literal('fingerprint'),
      Type.Literal('face_match'),
      Type.Literal('id_card_check'),
    ]),
    status: Type.Literal('REJECTED'),
    score: Type.Number(),
    message: Type.String(),
    reason: Type.Optional(
      Type.String({
        description:
          'no_match, not_enrolled, reenrollment_required, not_a_fingerprint, no_face_detected, poor_quality, feature_not_found',
      }),
    ),
  },
  { $id: 'RejectionBody', additionalProperties: true },
);

/** What each error status means, by default; routes override the statuses whose meaning is theirs. */
const ERROR_MEANINGS: Record<number, string> = {
  400: 'A field is missing, sent twice or invalid (`field` names it), a mobile number is not valid, or the body is malformed. Codes FIELD_MISSING, FIELD_INVALID, MOBILE_NUMBER_INVALID, BODY_INVALID.',
  401: 'No valid x-api-key while authentication is enforced (in observe mode the request goes on). Code UNAUTHORIZED.',
  404: 'The resource named in the path does not exist. Code NOT_FOUND.',
  409: 'The request conflicts with what is stored. Code CONFLICT.',
  413: 'A file is over the byte limit (10 MiB by default) or an image over the pixel limit (40 megapixels). Codes FILE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS.',
  415: 'The body is not of the media type this endpoint takes, or a file is not a JPEG, PNG, WebP, TIFF or BMP image, or is truncated. Codes UNSUPPORTED_MEDIA_TYPE, IMAGE_UNSUPPORTED, IMAGE_TRUNCATED.',
  422: 'An image decodes but cannot be used (too small, no usable content). Codes UNPROCESSABLE, QUALITY_TOO_LOW, NOT_A_FINGERPRINT (the image is not a fingerprint; fingerprint_likeness in the body).',
  429: 'The rate limit of the API key (or of the address, for keyless calls) is exceeded; retry after Retry-After seconds. Code RATE_LIMITED.',
  500: 'A fault of the server, never caused by the request; quote request_id when reporting it. Code INTERNAL.',
  501: 'The engine behind this endpoint is not available in this build. Code NOT_IMPLEMENTED.',
  503: 'Unavailable for a moment; retry after Retry-After seconds: the server is busy (OVERLOADED), an engine lost its worker (ENGINE_UNAVAILABLE), or the store does not answer, is busy or out of disk space and nothing was saved (STORE_UNAVAILABLE).',
};

/** Statuses every route behind x-api-key can answer. */
export const KEYED_ERRORS = [401, 429, 500, 501, 503] as const;
/** Statuses of routes that take uploaded or base64 images and run an engine on them. */
export const IMAGE_ROUTE_ERRORS = [...KEYED_ERRORS, 400, 413, 415, 422] as const;

/**
 * Error responses of one operation: the statuses it can answer, each described by its default meaning or by
 * the route's own (`meanings`), all with the ErrorBody schema.
 */
export function errorResponses(
  statuses: readonly number[],
  meanings: Partial<Record<number, string>> = {},
): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [...new Set([...statuses, ...Object.keys(meanings).map(Number)])].sort(
    (a, b) => a - b,
  )) {
    const description = meanings[status] ?? ERROR_MEANINGS[status];
    if (!description) throw new Error(`No meaning for status ${status}`);
    responses[status] = Type.Ref('ErrorBody', { description });
  }
  return responses;
}

/** A success schema with the description the OpenAPI document shows for it. */
export function described<T extends TSchema>(description: string, schema: T): T {
  return { ...schema, description };
}

/** How multipart fields are documented, by name. */
const MULTIPART_FIELDS: Record<string, string> = {
  mobile_number: 'Mobile number with its country code, digits only or with spaces, e.g. 447911123456.',
  fingerprint: 'Fingerprint image.',
  file: 'Fingerprint image.',
  selfie: 'Face image of the person.',
  id_card: 'Image of the ID card.',
  profile: 'Document profile to check against (default "default").',
  threshold: 'Own similarity threshold for this request.',
};
const IMAGE_NOTE = ' JPEG, PNG, WebP, TIFF or BMP; at most 10 MiB and 40 megapixels.';

/**
 * An OpenAPI multipart body: file fields as binary, text fields as strings, the `required` ones required, and
 * `oneOf` groups of aliases of which exactly one must be sent.
 */
export function multipartBody(
  files: string[],
  texts: string[],
  required: string[],
  oneOf: string[][] = [],
): TSchema {
  const properties: Record<string, TSchema> = {};
  const optional = (name: string, schema: TSchema): TSchema =>
    required.includes(name) ? schema : Type.Optional(schema);
  for (const name of texts) {
    properties[name] = optional(name, Type.String({ description: MULTIPART_FIELDS[name] ?? name }));
  }
  for (const name of files) {
    const description = `${MULTIPART_FIELDS[name] ?? name}${IMAGE_NOTE}`;
    properties[name] = optional(name, Type.String({ format: 'binary', description }));
  }
  return Type.Object(properties, oneOf.length ? { oneOf: oneOf.map((names) => ({ required: names })) } : {});
}

/** A JSON body field carrying a base64-encoded image. */
export function base64Image(description: string): TSchema {
  return Type.String({
    contentEncoding: 'base64',
    description: `${description} (base64; JPEG, PNG, WebP, TIFF or BMP)`,
  });
}

/** Validator for multipart routes: the body is read and checked by intake.ts, the schema only documents it. */
export const documentOnlyValidator = (): ((data: unknown) => boolean) => () => true;

/** Security requirement for routes that need `x-api-key`. */
export const apiKeySecurity = [{ apiKey: [] as string[] }];
