import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { appVersion } from '../assets/assets.js';
import { ErrorBody, RejectionBody } from './schemas.js';

/** True for the routes of the public API: SPEC's /v1 and /v2 and the /docs/<service>/api/ sub-services. */
export function isPublicApi(url: string): boolean {
  return /^\/(v1|v2)\//.test(url) || /^\/docs\/[a-z-]+\/api\//.test(url);
}

/** OpenAPI 3 generated from the route schemas; served at /openapi.json without a key. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  app.addSchema(RejectionBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'IDV Console API',
        version: appVersion(),
        description:
          'Identity verification: fingerprint, face and ID-card checks run locally. Every route but health, service roots and this document needs the x-api-key header (401 once enforcement is on). Rejections answer HTTP 200 with status REJECTED, the failed step and a reason; malformed requests answer 4xx with status ERROR and a code.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
    },
    // Only the public API is documented: the console's pages, assets and own API (session cookie, same origin) are not.
    transform: ({ schema, url }) => ({
      schema: isPublicApi(url) ? schema : { ...schema, hide: true },
      url,
    }),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
