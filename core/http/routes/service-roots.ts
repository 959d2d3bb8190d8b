import type { FastifyInstance } from 'fastify';
import { appVersion } from '../../assets/assets.js';
import type { EngineHealth } from '../../contracts/step-result.js';
import { isCoreError } from '../../errors.js';
import type { Services } from '../../services/container.js';

/** What a sub-service tells its health and root routes. */
interface SubServiceProvider {
  health(): Promise<EngineHealth>;
  root?(): Record<string, unknown>;
}
import { HealthResponses, ServiceRootResponses } from './service-root-schemas.js';

/** The five sub-services of SPEC 1, with their purpose and the engine that backs each. */
const SUB_SERVICES: {
  name: string;
  purpose: string;
  endpoints: string[];
  provider: (s: Services) => SubServiceProvider | undefined;
}[] = [
  {
    name: 'fingerprint',
    purpose:
      'Enrolls fingerprint templates indexed by mobile number; 1:N identity search through a vector store.',
    endpoints: [
      'POST enroll',
      'POST verify',
      'POST search',
      'GET enrollments/{mobile_number}',
      'DELETE enrollments/{mobile_number}',
    ],
    provider: (s) => s.fingerprint,
  },
  {
    name: 'liveness',
    purpose: 'Passive liveness detection from a single image (photo, replay and mask attacks).',
    endpoints: ['POST check'],
    provider: (s) => s.liveness,
  },
  {
    name: 'face-matching',
    purpose: '1:1 comparison of a selfie against an ID-card portrait with a configurable threshold.',
    endpoints: ['POST match', 'POST quality'],
    provider: (s) => s.face,
  },
  {
    name: 'ocr',
    purpose:
      'Extracts structured fields from passports, national IDs and driving licences (MRZ, printed text, barcodes).',
    endpoints: ['POST extract'],
    provider: (s) => s.ocr,
  },
  {
    name: 'orchestrator',
    purpose: 'Weighted liveness + face match in one call; publishes results to a message queue.',
    endpoints: ['POST verify', 'GET events', 'GET events/stream'],
    provider: (s) => s.orchestrator,
  },
];

/** Names of the sub-services (path segment under /docs/). */
export const SUB_SERVICE_NAMES = SUB_SERVICES.map((s) => s.name);

/** GET /docs/<name>/api/ (service root) and GET /docs/<name>/api/health, both without a key (SPEC 4, 5). */
export function registerServiceRoots(app: FastifyInstance, services: Services): void {
  for (const sub of SUB_SERVICES) {
    app.get(
      `/docs/${sub.name}/api/`,
      {
        schema: {
          tags: ['service roots'],
          summary: `${sub.name} service root`,
          response: ServiceRootResponses,
        },
      },
      () => {
        const provider = sub.provider(services);
        return {
          name: sub.name,
          version: appVersion(),
          purpose: sub.purpose,
          status: provider ? 'available' : 'not_implemented',
          endpoints: sub.endpoints.map((e) => {
            const [method, path] = e.split(' ');
            return { method, path: `/docs/${sub.name}/api/${path ?? ''}` };
          }),
          health: `/docs/${sub.name}/api/health`,
          ...(provider?.root?.() ?? {}),
        };
      },
    );
    app.get(
      `/docs/${sub.name}/api/health`,
      { schema: { tags: ['service roots'], summary: `${sub.name} health`, response: HealthResponses } },
      async (_request, reply) => {
        const store = await services.store.health();
        const provider = sub.provider(services);
        if (!provider) {
          return reply.code(503).send({
            name: sub.name,
            status: 'not_implemented',
            store,
            message: `The ${sub.name} engine is not built yet.`,
          });
        }
        // An engine whose health reads the store cannot report while the store is away: health says so instead.
        const engine = await provider.health().catch((error: unknown) => ({
          status: 'error',
          error: isCoreError(error) ? error.message : 'The engine could not report its health.',
        }));
        const ok = store.reachable && engine.status !== 'error';
        return reply
          .code(ok ? 200 : 503)
          .send({ name: sub.name, status: ok ? 'ok' : 'error', store, engine });
      },
    );
  }
}
