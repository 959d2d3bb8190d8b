import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { errorResponses } from '../schemas.js';
import { notImplemented } from './not-implemented.js';

/** Routes of The orchestrator (issue 6): answer 501 until the engine lands. */
export function registerOrchestratorRoutes(app: FastifyInstance, _services: Services): void {
  app.route({
    method: 'POST',
    url: '/docs/orchestrator/api/verify',
    schema: { tags: ['orchestrator'], response: errorResponses() },
    handler: () => notImplemented('The orchestrator (issue 6)'),
  });
}
