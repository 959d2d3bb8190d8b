import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { errorResponses } from '../schemas.js';
import { notImplemented } from './not-implemented.js';

/** Routes of The OCR engine (issue 5): answer 501 until the engine lands. */
export function registerOcrRoutes(app: FastifyInstance, _services: Services): void {
  app.route({
    method: 'POST',
    url: '/docs/ocr/api/extract',
    schema: { tags: ['ocr'], response: errorResponses() },
    handler: () => notImplemented('The OCR engine (issue 5)'),
  });
}
