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
    message: Type.String(),
    field: Type.Optional(Type.String({ description: 'The request field the error is about.' })),
    request_id: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody', additionalProperties: true, description: 'Error body of DESIGN.md for every 4xx/5xx.' },
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

/** Responses every API route can give besides its success body. */
export function errorResponses(): Record<string, TSchema> {
  const ref = Type.Ref('ErrorBody');
  return { 400: ref, 401: ref, 413: ref, 415: ref, 422: ref, 429: ref, 500: ref, 501: ref, 503: ref };
}

/** An OpenAPI multipart body: file fields as binary, text fields as strings. */
export function multipartBody(files: string[], texts: string[], required: string[]): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const name of texts) properties[name] = Type.String();
  for (const name of files) properties[name] = Type.String({ format: 'binary' });
  return Type.Object(properties, { required });
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
