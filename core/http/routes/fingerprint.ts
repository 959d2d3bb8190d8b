import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { errorResponses } from '../schemas.js';
import { notImplemented } from './not-implemented.js';

/** Routes of The fingerprint engine (issue 3): answer 501 until the engine lands. */
export function registerFingerprintRoutes(app: FastifyInstance, _services: Services): void {
  app.route({
    method: 'POST',
    url: '/v2/enroll-fp',
    schema: { tags: ['fingerprint'], response: errorResponses() },
    handler: () => notImplemented('The fingerprint engine (issue 3)'),
  });
  app.route({
    method: 'POST',
    url: '/v2/verify-fp',
    schema: { tags: ['fingerprint'], response: errorResponses() },
    handler: () => notImplemented('The fingerprint engine (issue 3)'),
  });
  app.route({
    method: 'POST',
    url: '/docs/fingerprint/api/enroll',
    schema: { tags: ['fingerprint'], response: errorResponses() },
    handler: () => notImplemented('The fingerprint engine (issue 3)'),
  });
  app.route({
    method: 'POST',
    url: '/docs/fingerprint/api/verify',
    schema: { tags: ['fingerprint'], response: errorResponses() },
    handler: () => notImplemented('The fingerprint engine (issue 3)'),
  });
  app.route({
    method: 'POST',
    url: '/docs/fingerprint/api/search',
    schema: { tags: ['fingerprint'], response: errorResponses() },
    handler: () => notImplemented('The fingerprint engine (issue 3)'),
  });
}
