import type { AuditRow } from '../contracts/audit-repository.js';
import type { ApiKeyRecord } from '../contracts/api-key-repository.js';
import type { OutboxRow } from '../contracts/outbox-repository.js';
import type { ConsoleUserRecord, ConsoleRole } from '../contracts/console-repositories.js';

/**
 * Rows as both stores read them (the same columns in SQLite and PostgreSQL) and the records they map to, so the
 * adapters differ only in their SQL.
 */

/** A row of `audit_log`. */
export interface AuditRowData {
  seq: number;
  time: string;
  request_id: string;
  method: string;
  route: string;
  key_id: string | null;
  auth_outcome: string;
  http_status: number;
  result_status: string | null;
  failed_step: string | null;
  reason: string | null;
  scores: string | null;
  latency_ms: number;
  mobile_masked: string | null;
  event: string | null;
  prev_hash: string;
  hash: string;
}

/** The record of a row. */
export function auditRowOf(r: AuditRowData): AuditRow {
  return {
    seq: r.seq,
    time: r.time,
    requestId: r.request_id,
    method: r.method,
    route: r.route,
    keyId: r.key_id,
    authOutcome: r.auth_outcome,
    httpStatus: r.http_status,
    resultStatus: r.result_status,
    failedStep: r.failed_step,
    reason: r.reason,
    scores: r.scores,
    latencyMs: r.latency_ms,
    mobileMasked: r.mobile_masked,
    event: r.event,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** A row of `api_keys`. */
export interface ApiKeyRowData {
  id: string;
  prefix: string;
  hash: Buffer;
  description: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The record of a row. */
export function apiKeyOf(row: ApiKeyRowData): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    hash: row.hash,
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** A row of `orchestrator_outbox`. */
export interface OutboxRowData {
  seq: number;
  event_id: string;
  subject: string;
  payload: string;
  created_at: string;
  published_at: string | null;
}

/** The record of a row. */
export function outboxRowOf(raw: OutboxRowData): OutboxRow {
  return {
    seq: raw.seq,
    eventId: raw.event_id,
    subject: raw.subject,
    payload: raw.payload,
    createdAt: raw.created_at,
    publishedAt: raw.published_at,
  };
}

/** A row of `console_users`. */
export interface ConsoleUserRowData {
  id: string;
  username: string;
  role: ConsoleRole;
  password_hash: string;
  created_at: string;
  disabled_at: string | null;
}

/** The record of a row. */
export function consoleUserOf(row: ConsoleUserRowData): ConsoleUserRecord {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
  };
}
