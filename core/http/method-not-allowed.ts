import type { FastifyInstance, FastifyRequest } from 'fastify';

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

/**
 * The methods the request's path does take, when it takes some but not the request's (405 with `Allow`
 * rather than 404: the path exists). Undefined for a path no route has.
 */
export function methodNotAllowed(app: FastifyInstance, request: FastifyRequest): string[] | undefined {
  const url = request.url.split('?')[0] ?? '';
  const allowed = METHODS.filter(
    (method) => method !== request.method && app.findRoute({ method, url }) !== null,
  );
  return allowed.length > 0 ? allowed : undefined;
}
