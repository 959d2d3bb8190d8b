import { EVENT_STREAM, EVENT_SUBJECTS } from '../outbox/jetstream-publisher.js';
import type { RelayStats } from '../outbox/relay.js';
import type { OrchestratorConfig } from './config.js';
import { VERIFICATION_SUBJECT } from './event.js';

/** Broker facts for health and the service root (the URL without credentials). */
export interface BrokerFacts {
  enabled: boolean;
  connected: boolean;
  url: string | null;
}

/** What health is computed from. */
export interface HealthInput {
  faceReady: boolean;
  broker: BrokerFacts;
  backlog: { count: number; oldestCreatedAt: string | null };
  head: number;
  relay: RelayStats | null;
}

/** Health: broker connected, outbox backlog, relay state. Degraded (still 200) while the broker is away. Pure. */
export function healthDocument(input: HealthInput): Record<string, unknown> {
  const degraded = !input.faceReady || (input.broker.enabled && !input.broker.connected);
  return {
    status: degraded ? 'degraded' : 'ok',
    face_engine: input.faceReady,
    broker: input.broker,
    outbox: {
      backlog: input.backlog.count,
      oldest_unpublished_at: input.backlog.oldestCreatedAt,
      head: input.head,
    },
    relay: input.relay,
  };
}

/** Extra fields of the service root: the active configuration, where events go, the event schema. Pure. */
export function rootDocument(config: OrchestratorConfig, broker: BrokerFacts): Record<string, unknown> {
  return {
    config,
    queue: { ...broker, stream: EVENT_STREAM, subjects: EVENT_SUBJECTS, subject: VERIFICATION_SUBJECT },
    events: {
      feed: '/docs/orchestrator/api/events?after=<cursor>&limit=<n>&wait=<seconds>',
      stream: '/docs/orchestrator/api/events/stream (SSE, Last-Event-ID resumes)',
      schema: '/openapi.json#/components/schemas/OrchestratorVerificationEvent',
      delivery: 'at-least-once; de-duplicate on the event id (also the JetStream msgID)',
    },
  };
}
