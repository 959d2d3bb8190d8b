import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CoreError, httpStatusOf, isCoreError, type ErrorCode } from '../errors.js';
import { clientClosed, markClientClosed } from './client-closed.js';
import { expectedMediaType, wrongMediaType } from './media-type.js';
import { methodNotAllowed } from './method-not-allowed.js';

const WHERE: Record<string, [string, string]> = {
  body: ['field', 'body'],
  querystring: ['query parameter', 'query string'],
  params: ['path parameter', 'path'],
  headers: ['header', 'headers'],
};

/** A schema violation in words: "The limit query parameter must be integer.", "The username field is required." */
function fromValidation(error: FastifyError): CoreError {
  const first = error.validation?.[0];
  const params = (first?.params ?? {}) as { missingProperty?: string };
  const path = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const [noun, whole] = WHERE[error.validationContext ?? 'body'] ?? ['field', 'body'];
  if (params.missingProperty) {
    const field = path ? `${path}.${params.missingProperty}` : params.missingProperty;
    return new CoreError('FIELD_MISSING', `The ${field} ${noun} is required.`, { field });
  }
  const rule = first?.message ?? 'does not match the schema';
  if (!path) return new CoreError('BODY_INVALID', `The ${whole} ${rule}.`);
  return new CoreError('BODY_INVALID', `The ${path} ${noun} ${rule}.`, { field: path });
}

/** Map Fastify's own errors (parsing, validation, limits) to our codes; anything unknown is INTERNAL. */
function fromFastify(error: FastifyError, request: FastifyRequest): CoreError | null {
  if (error.validation) return fromValidation(error);
  const expected = expectedMediaType(request);
  if (expected && error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return wrongMediaType(expected, request.headers['content-type']?.split(';')[0]);
  }
  const byCode: Partial<Record<string, [ErrorCode, string]>> = {
    FST_ERR_CTP_BODY_TOO_LARGE: ['FILE_TOO_LARGE', 'The request body is too large.'],
    FST_REQ_FILE_TOO_LARGE: ['FILE_TOO_LARGE', 'An uploaded file is too large.'],
    FST_FILES_LIMIT: ['BODY_INVALID', 'Too many files in the form.'],
    FST_FIELDS_LIMIT: ['BODY_INVALID', 'Too many fields in the form.'],
    FST_PARTS_LIMIT: ['BODY_INVALID', 'Too many parts in the form.'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type for this endpoint.'],
    FST_INVALID_MULTIPART_CONTENT_TYPE: [
      'UNSUPPORTED_MEDIA_TYPE',
      'This endpoint takes multipart/form-data.',
    ],
    FST_ERR_CTP_EMPTY_JSON_BODY: ['BODY_INVALID', 'The JSON body is empty.'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BODY_INVALID', 'Content-Length does not match the body.'],
    FST_PROTO_VIOLATION: ['BODY_INVALID', 'The body uses a reserved field name (__proto__, constructor).'],
    FST_INVALID_JSON_FIELD_ERROR: [
      'BODY_INVALID',
      'A form field declared as application/json does not hold valid JSON.',
    ],
  };
  const known = error.code ? byCode[error.code] : undefined;
  if (known) return new CoreError(known[0], known[1]);
  const status = error.statusCode ?? 500;
  if (status === 400 || error instanceof SyntaxError)
    return new CoreError('BODY_INVALID', 'The request body is malformed.');
  if (status === 413) return new CoreError('FILE_TOO_LARGE', 'The request body is too large.');
  if (status === 415 || status === 406)
    return new CoreError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type.');
  if (status >= 400 && status < 500) return new CoreError('BODY_INVALID', 'The request is malformed.');
  return null;
}

/** One place mapping errors to the DESIGN.md error body; 5xx bodies never carry internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientClosed(request)) return markClientClosed(request, reply);
    const error = isCoreError(raw) ? raw : fromFastify(raw, request);
    if (!error) {
      request.log.error(
        { err: { message: raw.message, code: raw.code, stack: raw.stack } },
        'unhandled error',
      );
      request.idv.resultStatus = 'ERROR';
      return reply.code(500).send({
        status: 'ERROR',
        code: 'INTERNAL',
        message: 'An internal error occurred; the request was not completed.',
        request_id: request.id,
      });
    }
    request.idv.resultStatus = 'ERROR';
    request.idv.reason = error.code;
    const status = httpStatusOf(error.code);
    if (error.details.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(error.details.retryAfterSeconds));
    if (status >= 500) request.log.warn({ code: error.code }, error.message);
    return reply.code(status).send({
      status: 'ERROR',
      code: error.code,
      message: error.message,
      ...(error.details.field ? { field: error.details.field } : {}),
      ...(error.details.extra ?? {}),
      request_id: request.id,
    });
  });
  app.setNotFoundHandler((request, reply) => {
    request.idv.resultStatus = 'ERROR';
    const allowed = methodNotAllowed(app, request);
    if (allowed) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          status: 'ERROR',
          code: 'METHOD_NOT_ALLOWED',
          message: `${request.method} is not allowed here; this route takes ${allowed.join(', ')}.`,
          request_id: request.id,
        });
    }
    return reply.code(404).send({
      status: 'ERROR',
      code: 'NOT_FOUND',
      message: `No route ${request.method} ${request.url.split('?')[0]?.slice(0, 200) ?? ''}.`,
      request_id: request.id,
    });
  });
}
