/** The audit chain's row hash: the format every store adapter writes and `audit verify` checks. */
import crypto from 'node:crypto';

/** The fields of an audit row that the hash covers, in a fixed order. */
export interface AuditFields {
  time: string;
  requestId: string;
  method: string;
  route: string;
  keyId: string | null;
  authOutcome: string;
  httpStatus: number;
  resultStatus: string | null;
  failedStep: string | null;
  reason: string | null;
  scores: string | null;
  latencyMs: number;
  mobileMasked: string | null;
  event: string | null;
}

/** The latency as stored and hashed: milliseconds rounded to 3 decimals. */
export function roundLatency(latencyMs: number): number {
  return Math.round(latencyMs * 1000) / 1000;
}

/** Hash of the first row's predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hashed fields' values in the chain's order (the order of the audit_log columns after seq). */
export function auditValues(f: AuditFields): (string | number | null)[] {
  return [
    f.time,
    f.requestId,
    f.method,
    f.route,
    f.keyId,
    f.authOutcome,
    f.httpStatus,
    f.resultStatus,
    f.failedStep,
    f.reason,
    f.scores,
    roundLatency(f.latencyMs),
    f.mobileMasked,
    f.event,
  ];
}

/** sha256 over the previous hash and the row's fields in a fixed order (a pure function, tested alone). */
export function chainHash(prevHash: string, f: AuditFields): string {
  const canonical = JSON.stringify([prevHash, ...auditValues(f)]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}
