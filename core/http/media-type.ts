import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError } from '../errors.js';

/**
 * The media type a route takes: the first of its schema's `consumes` (multipart routes), application/json for
 * other routes whose schema has a body, none for routes that take no body.
 */
export function expectedMediaType(request: FastifyRequest): string | undefined {
  const schema = request.routeOptions.schema as { consumes?: string[]; body?: unknown } | undefined;
  if (!schema) return undefined;
  if (schema.consumes?.length) return schema.consumes[0];
  return schema.body ? 'application/json' : undefined;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0') ||
    request.headers['content-type'] !== undefined
  );
}

/** The 415 of a body that is not of the route's media type, naming the one it takes. */
export function wrongMediaType(expected: string, got: string | undefined): CoreError {
  const sent = got ? `got ${got.slice(0, 80)}` : 'no Content-Type was sent';
  return new CoreError('UNSUPPORTED_MEDIA_TYPE', `This endpoint takes ${expected} (${sent}).`, {
    extra: { expected },
  });
}

/**
 * Refuse a body of the wrong media type with 415 before it is read (preParsing: after authentication and the
 * console's origin checks), so a form posted to a JSON route is not mistaken for a body missing its fields.
 */
export function installMediaTypeCheck(app: FastifyInstance): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const expected = expectedMediaType(request);
    if (!expected || !hasBody(request)) {
      done(null, payload);
      return;
    }
    const header = request.headers['content-type'];
    const media = header?.split(';')[0]?.trim().toLowerCase();
    if (media === expected) {
      done(null, payload);
      return;
    }
    reply.header('accept-post', expected);
    done(wrongMediaType(expected, media));
  });
}
