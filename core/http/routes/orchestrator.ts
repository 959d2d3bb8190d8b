import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import { MAX_WAIT_MS } from '../../services/outbox/event-feed.js';
import { VerificationEventSchema } from '../../services/orchestrator/event.js';
import { safeReference } from '../../services/orchestrator/reference.js';
import type { OrchestratorService } from '../../services/orchestrator/service.js';
import { readJsonImage } from '../intake.js';
import {
  apiKeySecurity,
  described,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  KEYED_ERRORS,
} from '../schemas.js';
import { notImplemented } from './not-implemented.js';
import {
  EventsPage,
  EventsQuery,
  StreamQuery,
  OrchestratorConfigComponent,
  OrchestratorVerifyBody,
  OrchestratorVerifyResponse,
} from './orchestrator-schemas.js';
import { streamEvents } from './orchestrator-sse.js';

const WHAT = 'The orchestrator';
const BASE = '/docs/orchestrator/api';

function orchestratorOf(services: Services): OrchestratorService {
  return services.orchestrator ?? notImplemented(WHAT);
}

/**
 * Orchestrator routes: verify (synchronous decision, event recorded in the audit transaction), the LAN event
 * feed (long-poll) and its SSE stream, and the read-only configuration. Editing the configuration is a console
 * (operator session) route, never an API-key one.
 */
export function registerOrchestratorRoutes(app: FastifyInstance, services: Services): void {
  app.addSchema(VerificationEventSchema);
  app.addSchema(OrchestratorConfigComponent);
  // Released in preClose so long-polls and SSE streams never hold the server's close.
  const closing = new AbortController();
  app.addHook('preClose', (done) => {
    closing.abort();
    done();
  });

  app.post(
    `${BASE}/verify`,
    {
      validatorCompiler: documentOnlyValidator,
      schema: {
        tags: ['orchestrator'],
        summary: 'Liveness then face match, weighted into one decision; published as an event',
        description:
          'Answers 200 with decision APPROVED, REJECTED or REVIEW (combined score in the configured band, or a stage that timed out). The result is written to the outbox atomically with the audit row and relayed to NATS JetStream (subject idv.events.orchestrator.verification); `event_id` is the event id consumers de-duplicate on.',
        security: apiKeySecurity,
        body: OrchestratorVerifyBody,
        response: {
          200: described(
            'The decision (APPROVED, REJECTED or REVIEW) with each stage and the event id.',
            OrchestratorVerifyResponse,
          ),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
    },
    async (request) => {
      const orchestrator = orchestratorOf(services);
      orchestrator.assertAvailable();
      const reference = (request.body as Record<string, unknown> | null)?.reference;
      // Cheap field checks before the images are decoded.
      safeReference(reference);
      const face = { purposes: ['face'] } as const;
      const selfie = (await readJsonImage(request, 'selfie', services, face))!;
      const idCard = (await readJsonImage(request, 'id_card', services, face))!;
      const result = await orchestrator.verify({ selfie, idCard, requestId: request.id, reference });
      request.idv.resultStatus = result.audit.resultStatus;
      request.idv.scores = result.audit.scores;
      if (result.audit.failedStep !== undefined) request.idv.failedStep = result.audit.failedStep;
      if (result.audit.reason !== undefined) request.idv.reason = result.audit.reason;
      request.idv.event = 'orchestrator.verification';
      request.idv.outbox = [orchestrator.outboxEvent(result.event)];
      request.idv.afterCommit = () => {
        orchestrator.committed();
      };
      return result.body;
    },
  );

  app.get(
    `${BASE}/events`,
    {
      schema: {
        tags: ['orchestrator'],
        summary: 'Verification events after a cursor (long-poll up to 25 s when none are new)',
        description:
          'For LAN consumers without the broker. At-least-once: de-duplicate on `id`. Events never carry images.',
        security: apiKeySecurity,
        querystring: EventsQuery,
        response: {
          200: described(
            'The events after the cursor (possibly none after the wait) and the next cursor.',
            EventsPage,
          ),
          ...errorResponses([...KEYED_ERRORS, 400], {
            400: 'A query parameter is not a number in range. Code BODY_INVALID.',
          }),
        },
      },
    },
    async (request, reply) => {
      const feed = orchestratorOf(services).events;
      const query = request.query as { after?: string; limit?: string; wait?: string };
      const after = Number(query.after ?? '0');
      const limit = Math.min(500, Math.max(1, Number(query.limit ?? '100')));
      const waitSeconds = Math.min(MAX_WAIT_MS / 1000, Number(query.wait ?? '25'));
      const leave = new AbortController();
      reply.raw.once('close', () => {
        leave.abort();
      });
      const page = await feed.wait(
        after,
        limit,
        waitSeconds * 1000,
        AbortSignal.any([leave.signal, closing.signal]),
      );
      return { events: page.events, cursor: page.cursor };
    },
  );

  app.get(
    `${BASE}/events/stream`,
    {
      schema: {
        tags: ['orchestrator'],
        summary: 'Server-Sent Events stream of verification events (Last-Event-ID resumes)',
        description:
          'Each message: `id:` outbox position, `event: verification`, `data:` the event JSON. Without Last-Event-ID or ?after= it starts with new events.',
        security: apiKeySecurity,
        querystring: StreamQuery,
        response: {
          200: {
            description: 'A stream of verification events, kept open; one `verification` message per event.',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses([...KEYED_ERRORS, 400], {
            400: 'A query parameter or Last-Event-ID is not a number in range. Code BODY_INVALID.',
          }),
        },
      },
    },
    async (request, reply) => {
      await streamEvents(request, reply, orchestratorOf(services).events, closing.signal);
    },
  );

  app.get(
    `${BASE}/config`,
    {
      schema: {
        tags: ['orchestrator'],
        summary: 'The active orchestrator configuration (edited from the console)',
        security: apiKeySecurity,
        response: {
          200: Type.Ref('OrchestratorConfig', {
            description: 'The weights, thresholds, timeouts and gating rules in force.',
          }),
          ...errorResponses(KEYED_ERRORS),
        },
      },
    },
    () => orchestratorOf(services).getConfig(),
  );
}
