import type { FastifyRequest as _FastifyRequest } from 'fastify';
import type { OutboxEvent } from '../contracts/outbox-repository.js';

/**
 * What a route tells the audit writer about its request. Only statuses, scores and ids: never image bytes.
 * The audit row is written before the response leaves (onSend), atomically with the request's `outbox` events, so an
 * outbox row and its audit row commit or fail together.
 */
export interface RequestAudit {
  /** API key id when a valid key was presented, `console:<user>` for console actions, else null. */
  keyId: string | null;
  /** valid | missing | invalid | revoked | console | exempt */
  authOutcome: string;
  /** SUCCESS | REJECTED | ERROR (set by routes and the error handler). */
  resultStatus?: string;
  failedStep?: string;
  reason?: string;
  /** Numeric scores of the checks that ran, by name. */
  scores?: Record<string, number>;
  /** E.164 number the request was about; only its masked form is stored. */
  mobile?: string;
  /** A short machine-readable event name (e.g. fingerprint.deleted, fingerprint.duplicate_flagged). */
  event?: string;
  /** Events committed with the audit row (the orchestrator's result). */
  outbox?: OutboxEvent[];
  /** Work to run after that transaction committed (e.g. nudge the outbox relay). */
  afterCommit?: () => void;
  /** True when the client went away before the answer: audited as HTTP 499 with no result. */
  clientClosed?: boolean;
  /** False for requests that are not audited (health, service roots, static assets). */
  audited: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idv: RequestAudit;
    idvStartedAt: bigint;
  }
}
