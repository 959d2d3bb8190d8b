import type { AuditFields } from '../../core/contracts/audit-chain.js';
import { openStore } from '../../core/storage/open-store.js';

const STEPS = ['fingerprint', 'face_match', 'id_card_check'] as const;

/**
 * Fill a data directory's audit log with `count` hash-chained rows over the last 30 days (one transaction), so the
 * console is tested against a realistically large log: ~80% SUCCESS, rejections spread over the three steps.
 */
export async function seedAudit(dataDir: string, count: number): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    const start = Date.now() - 29 * 86_400_000;
    const span = Date.now() - 60_000 - start;
    const rows: AuditFields[] = [];
    for (let i = 0; i < count; i++) {
      const day = Math.floor((i / count) * 30);
      // Rejections grow over the month so the chart has a shape; the pattern is deterministic.
      const roll = (i * 7919) % 100;
      const rejectShare = 10 + Math.round(day / 3);
      const step = roll < rejectShare ? STEPS[roll % 3] : undefined;
      rows.push({
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
      });
    }
    await store.audit.appendMany(rows);
  } finally {
    await store.close();
  }
}
