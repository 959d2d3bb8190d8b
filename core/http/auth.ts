import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError } from '../errors.js';
import type { Services } from '../services/container.js';
import { RateLimiter } from './rate-limit.js';

/** True for API routes that need `x-api-key`: /v1, /v2 and /docs/<service>/api/* except health and root. */
export function isApiRoute(routeUrl: string | undefined): boolean {
  if (!routeUrl) return false;
  if (routeUrl.startsWith('/v1/') || routeUrl.startsWith('/v2/')) return true;
  if (!routeUrl.startsWith('/docs/')) return false;
  return !/^\/docs\/[a-z-]+\/api\/(health)?$/.test(routeUrl);
}

/**
 * API-key authentication (SPEC 5) and per-key rate limiting, in onRequest so nothing is parsed for a
 * refused request. Mode and limit come from the settings' in-memory copy, which follows other processes' writes (the
 * CLI switches the mode of a running server).
 */
export function installAuth(app: FastifyInstance, services: Services): void {
  const limiter = new RateLimiter();

  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.idvStartedAt = process.hrtime.bigint();
    const apiRoute = isApiRoute(request.routeOptions.url);
    request.idv = { keyId: null, authOutcome: 'exempt', audited: apiRoute };
    if (!apiRoute) return;
    const header = request.headers['x-api-key'];
    const check = await services.keys.check(Array.isArray(header) ? header[0] : header);
    request.idv.keyId = check.keyId;
    request.idv.authOutcome = check.outcome;
    const mode = services.keys.mode();
    const perMinute = services.settings.get('limits.rateLimitPerMinute');
    if (check.outcome !== 'valid') {
      if (mode === 'enforce') {
        throw new CoreError(
          'UNAUTHORIZED',
          check.outcome === 'missing' ? 'The x-api-key header is required.' : 'The API key is not valid.',
        );
      }
      request.log.warn(
        { auth: check.outcome, route: request.routeOptions.url },
        'request without a valid API key (observe mode)',
      );
    }
    const wait = limiter.take(
      check.outcome === 'valid' ? `key:${check.keyId}` : `ip:${request.ip}`,
      perMinute,
    );
    if (wait > 0) {
      throw new CoreError('RATE_LIMITED', `Rate limit of ${perMinute} requests a minute exceeded.`, {
        retryAfterSeconds: wait,
      });
    }
  });
}
