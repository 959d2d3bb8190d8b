import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { errorResponses } from '../schemas.js';
import { notImplemented } from './not-implemented.js';

/** Routes of The face engine (issue 4): answer 501 until the engine lands. */
export function registerFaceRoutes(app: FastifyInstance, _services: Services): void {
  app.route({
    method: 'POST',
    url: '/v2/match-faces',
    schema: { tags: ['face'], response: errorResponses() },
    handler: () => notImplemented('The face engine (issue 4)'),
  });
  app.route({
    method: 'POST',
    url: '/docs/face-matching/api/match',
    schema: { tags: ['face'], response: errorResponses() },
    handler: () => notImplemented('The face engine (issue 4)'),
  });
  app.route({
    method: 'POST',
    url: '/docs/liveness/api/check',
    schema: { tags: ['face'], response: errorResponses() },
    handler: () => notImplemented('The face engine (issue 4)'),
  });
}
