import type { AuditRow } from '../contracts/audit-repository.js';
import type { ApiKeyRecord } from '../contracts/api-key-repository.js';
import type { OutboxRow } from '../contracts/outbox-repository.js';
import type {
  ConsoleRole,
  ConsoleSessionRecord,
  ConsoleUserRecord,
} from '../contracts/console-repositories.js';
import type { ReferenceMarkSummary } from '../contracts/document-engine.js';
import type { NewReferenceMark, StoredMarkFeatures } from '../contracts/document-repositories.js';

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

/** A row of `document_reference_marks`. */
export interface ReferenceMarkRowData {
  id: string;
  name: string;
  width: number;
  height: number;
  preview_png: Buffer;
  keypoint_count: number;
  points: Buffer;
  scales: Buffer;
  descriptors: Buffer;
  descriptor_version: number;
  created_at: string;
  template: Buffer | null;
  template_width: number | null;
  template_height: number | null;
}

/** A typed array's bytes for a blob or bytea column (little-endian, as the machine writes them). */
export function typedArrayBytes(view: Float32Array | Uint32Array): Buffer {
  return Buffer.from(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
}

/** A fresh, aligned copy of a column's bytes (typed arrays need 4-byte alignment; drivers pool their buffers). */
function aligned(buffer: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(buffer.length);
  new Uint8Array(out).set(buffer);
  return out;
}

/** The summary the console lists. */
export function referenceMarkSummaryOf(
  row: Pick<ReferenceMarkRowData, 'id' | 'name' | 'width' | 'height' | 'keypoint_count' | 'created_at'>,
) {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    keypoints: row.keypoint_count,
    created_at: row.created_at,
  } satisfies ReferenceMarkSummary;
}

/** The ORB features (and template) a mark is matched with. */
export function referenceMarkFeaturesOf(row: ReferenceMarkRowData): StoredMarkFeatures {
  const stored: StoredMarkFeatures = {
    count: row.keypoint_count,
    width: row.width,
    height: row.height,
    points: new Float32Array(aligned(row.points)),
    scales: new Float32Array(aligned(row.scales)),
    descriptors: new Uint32Array(aligned(row.descriptors)),
  };
  if (row.template && row.template_width && row.template_height) {
    stored.template = {
      data: new Uint8Array(aligned(row.template)),
      width: row.template_width,
      height: row.template_height,
    };
  }
  return stored;
}

/** A session joined with its user (`u.*` with the session's columns). */
export interface SessionUserRowData extends ConsoleUserRowData {
  id_hash: string;
  user_id: string;
  session_created_at: string;
  expires_at: string;
}

/** The session and its user of a joined row. */
export function sessionWithUserOf(row: SessionUserRowData): {
  session: ConsoleSessionRecord;
  user: ConsoleUserRecord;
} {
  return {
    session: {
      idHash: row.id_hash,
      userId: row.user_id,
      createdAt: row.session_created_at,
      expiresAt: row.expires_at,
    },
    user: consoleUserOf(row),
  };
}

/**
 * A new mark's column values in the order id, name, width, height, preview_png, keypoint_count, points, scales,
 * descriptors, descriptor_version, created_at, template, template_width, template_height.
 */
export function referenceMarkValues(mark: NewReferenceMark): (string | number | Buffer | null)[] {
  const f = mark.features;
  return [
    mark.id,
    mark.name,
    f.width,
    f.height,
    mark.preview,
    f.count,
    typedArrayBytes(f.points),
    typedArrayBytes(f.scales),
    typedArrayBytes(f.descriptors),
    mark.descriptorVersion,
    mark.createdAt,
    f.template ? Buffer.from(f.template.data) : null,
    f.template?.width ?? null,
    f.template?.height ?? null,
  ];
}

/** The summary of a mark just added. */
export function newReferenceMarkSummary(mark: NewReferenceMark): ReferenceMarkSummary {
  const f = mark.features;
  return referenceMarkSummaryOf({
    id: mark.id,
    name: mark.name,
    width: f.width,
    height: f.height,
    keypoint_count: f.count,
    created_at: mark.createdAt,
  });
}
