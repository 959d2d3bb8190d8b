import { chainHash, GENESIS_HASH, type AuditFields } from '../../core/services/audit-chain.js';
import { openStore } from '../../core/storage/db.js';

const STEPS = ['fingerprint', 'face_match', 'id_card_check'] as const;

/**
 * Fill a data directory's audit log with `count` hash-chained rows over the last 30 days (one transaction), so the
 * console is tested against a realistically large log: ~80% SUCCESS, rejections spread over the three steps.
 */
export function seedAudit(dataDir: string, count: number): void {
  const store = openStore(dataDir);
  try {
    // The same chain AuditLog.append builds, with one prepared statement (100k appends take ~2 s instead of ~12 s).
    const insert = store.db.prepare(
      `INSERT INTO audit_log (time, request_id, method, route, key_id, auth_outcome, http_status, result_status,
         failed_step, reason, scores, latency_ms, mobile_masked, event, prev_hash, hash)
       VALUES (@time, @requestId, @method, @route, @keyId, @authOutcome, @httpStatus, @resultStatus,
         @failedStep, @reason, @scores, @latencyMs, @mobileMasked, @event, @prevHash, @hash)`,
    );
    let prevHash = GENESIS_HASH;
    const start = Date.now() - 29 * 86_400_000;
    const span = Date.now() - 60_000 - start;
    store.db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const day = Math.floor((i / count) * 30);
        // Rejections grow over the month so the chart has a shape; the pattern is deterministic.
        const roll = (i * 7919) % 100;
        const rejectShare = 10 + Math.round(day / 3);
        const step = roll < rejectShare ? STEPS[roll % 3] : undefined;
        const fields: AuditFields = {
          time: new Date(start + Math.floor((i / count) * span)).toISOString(),
          requestId: `seed-${i}`,
          method: 'POST',
          route: '/v2/verify',
          keyId: i % 2 === 0 ? 'seed-key-branch' : 'seed-key-mobile',
          authOutcome: 'valid',
          httpStatus: 200,
          resultStatus: step ? 'REJECTED' : 'SUCCESS',
          failedStep: step ?? null,
          reason: step ? 'no_match' : null,
          scores: JSON.stringify({ fingerprint: 20.5, face_match: 0.71 }),
          latencyMs: 120 + (i % 50),
          mobileMasked: `+4479*****${String(100 + (i % 900)).padStart(3, '0')}`,
          event: null,
        };
        const hash = chainHash(prevHash, fields);
        insert.run({ ...fields, prevHash, hash });
        prevHash = hash;
      }
    })();
  } finally {
    store.close();
  }
}
