import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEFAULT_MAX_WAIT_MS,
  OperationGate,
  requestQueues,
  type GateStats,
  type RequestQueueName,
} from '../workers/index.js';

/** Which queue admits each heavy route's whole request (by route path). */
const ROUTE_QUEUES: Readonly<Record<string, RequestQueueName>> = {
  '/v2/enroll-fp': 'fingerprint',
  '/v2/verify-fp': 'fingerprint',
  '/docs/fingerprint/api/enroll': 'fingerprint',
  '/docs/fingerprint/api/verify': 'fingerprint',
  '/docs/fingerprint/api/search': 'fingerprint',
  '/api/console/run/enroll': 'fingerprint',
  '/api/console/run/fingerprint-preview': 'fingerprint',
  '/v2/match-faces': 'face',
  '/docs/face-matching/api/match': 'face',
  '/docs/face-matching/api/quality': 'face',
  '/docs/liveness/api/check': 'face',
  '/docs/orchestrator/api/verify': 'face',
  '/api/console/run/face-quality': 'face',
  '/v1/verify': 'document',
  '/docs/ocr/api/extract': 'ocr',
  '/v2/verify': 'verify',
  '/api/console/run/verify': 'verify',
};

/** Admission settings of the server. */
export interface AdmissionOptions {
  /** Refuse a request expected to wait longer than this before it starts, ms. Default 2000. */
  maxWaitMs?: number;
}

/** The request queues of a server, for health and tests. */
export class RequestAdmission {
  readonly gates: Readonly<Record<RequestQueueName, OperationGate>>;

  constructor(options: AdmissionOptions = {}) {
    const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    const sizes = requestQueues();
    const gate = (name: RequestQueueName): OperationGate => {
      const size = sizes[name];
      return new OperationGate({
        concurrency: size.concurrency,
        maxQueue: size.maxQueue,
        maxWaitMs,
        label: 'server',
        expectedMs: Object.fromEntries(Object.keys(ROUTE_QUEUES).map((route) => [route, size.expectedMs])),
      });
    };
    this.gates = {
      fingerprint: gate('fingerprint'),
      face: gate('face'),
      document: gate('document'),
      ocr: gate('ocr'),
      verify: gate('verify'),
    };
  }

  /** The queue of a route, or undefined for routes admitted without one (light work). */
  queueOf(route: string | undefined): OperationGate | undefined {
    const name = route === undefined ? undefined : ROUTE_QUEUES[route];
    return name === undefined ? undefined : this.gates[name];
  }

  /** Each queue's figures. */
  stats(): Record<RequestQueueName, GateStats> {
    return Object.fromEntries(
      Object.entries(this.gates).map(([name, gate]) => [name, gate.stats()]),
    ) as Record<RequestQueueName, GateStats>;
  }
}

/**
 * Admit each heavy request as a whole before its body is read (onRequest, after authentication): it waits for a
 * slot of its route's queue, or is refused at once with 503 and Retry-After when it could not start within the
 * longest wait. The slot is held until the request is done (request-resources.ts), so the requests accepted keep a
 * bounded latency, and the ones refused cost neither a body read nor a decode.
 */
export function installAdmission(app: FastifyInstance, admission: RequestAdmission): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    const gate = admission.queueOf(route);
    if (!gate || request.method !== 'POST') return;
    const leave = await gate.enter(route!, request.resources.clientGone);
    // Only answered requests count in the mean: refused and failed ones are quick and would lower it.
    request.resources.hold(leave);
  });
}
