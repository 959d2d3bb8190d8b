import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { errorResponses } from '../schemas.js';
import { notImplemented } from './not-implemented.js';

/** Routes of The ID-card security-feature check (issue 5): answer 501 until the engine lands. */
export function registerDocumentRoutes(app: FastifyInstance, _services: Services): void {
  app.route({
    method: 'POST',
    url: '/v1/verify',
    schema: { tags: ['documents'], response: errorResponses() },
    handler: () => notImplemented('The ID-card security-feature check (issue 5)'),
  });
}
