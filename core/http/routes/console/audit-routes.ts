import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { ApiKeyInfo, ApiKeyService } from '../../../services/api-keys.js';
import type { AuditLog, AuditQuery } from '../../../services/audit-log.js';
import { auditCsv } from '../../../services/console/audit-csv.js';
import { maskMobile, normaliseMobile } from '../../../mobile.js';
import type { AuditPageResponse } from './api-types.js';
import { requireRole } from './guard.js';

const Filters = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 40 })),
    to: Type.Optional(Type.String({ maxLength: 40 })),
    route: Type.Optional(Type.String({ maxLength: 200 })),
    httpStatus: Type.Optional(Type.String({ pattern: '^[1-5][0-9][0-9]$' })),
    resultStatus: Type.Optional(Type.String({ maxLength: 20 })),
    failedStep: Type.Optional(Type.String({ maxLength: 40 })),
    keyId: Type.Optional(Type.String({ maxLength: 100 })),
    mobile: Type.Optional(Type.String({ maxLength: 40 })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
type FilterQuery = Static<typeof Filters>;
// Query strings and params arrive as text (the app does not coerce types): numbers are matched by pattern.
const SeqParams = Type.Object({ seq: Type.String({ pattern: '^[0-9]{1,15}$' }) });
const StatsQuery = Type.Object({ days: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) });

/** Audit filters of the query string mapped to the audit log's; a typed mobile number is masked like stored rows. */
function toQuery(q: FilterQuery): AuditQuery {
  const query: AuditQuery = {};
  if (q.from) query.from = q.from;
  if (q.to) query.to = q.to;
  if (q.route) query.route = q.route;
  if (q.httpStatus !== undefined) query.httpStatus = Number(q.httpStatus);
  if (q.resultStatus) query.resultStatus = q.resultStatus;
  if (q.failedStep) query.failedStep = q.failedStep;
  if (q.keyId) query.keyId = q.keyId;
  if (q.mobile)
    query.mobileMasked = q.mobile.includes('*')
      ? q.mobile.trim()
      : maskMobile(normaliseMobile(q.mobile, 'mobile'));
  return query;
}

/**
 * Who each caller of `rows` is, for people: an API key's use-case description (with its prefix), a console
 * account's name. Keys deleted since are left out (the id is all there is).
 */
export function callerNames(rows: { keyId: string | null }[], keys: ApiKeyInfo[]): Record<string, string> {
  const byId = new Map(keys.map((k) => [k.id, k]));
  const names: Record<string, string> = {};
  for (const { keyId } of rows) {
    if (!keyId || keyId in names) continue;
    const key = byId.get(keyId);
    if (key) names[keyId] = `${key.description} (key idv_${key.prefix}…)`;
    else if (keyId.startsWith('console:')) names[keyId] = `${keyId.slice('console:'.length)} (console)`;
  }
  return names;
}

/** Audit log for auditors and admins: filtered keyset pages, one row, CSV export, chain check, daily stats. */
export function registerAuditRoutes(app: FastifyInstance, audit: AuditLog, keys: ApiKeyService): void {
  const readers = { preHandler: requireRole('auditor', 'admin') };

  app.get<{ Querystring: FilterQuery }>(
    '/audit',
    { ...readers, schema: { querystring: Filters } },
    async (request): Promise<AuditPageResponse> => {
      request.idv.audited = false;
      const limit = Math.min(Math.max(Number(request.query.limit ?? 50), 1), 200);
      const query = toQuery(request.query);
      if (request.query.before !== undefined) query.beforeSeq = Number(request.query.before);
      const rows = await audit.query({ ...query, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return {
        rows: page,
        nextBefore: rows.length > limit ? (page.at(-1)?.seq ?? null) : null,
        callers: callerNames(page, await keys.list()),
      };
    },
  );

  app.get<{ Querystring: FilterQuery }>(
    '/audit/export.csv',
    { ...readers, schema: { querystring: Filters } },
    async (request, reply) => {
      request.idv.audited = true;
      request.idv.event = 'audit.exported';
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(auditCsv(audit, toQuery(request.query))));
    },
  );

  app.get<{ Params: Static<typeof SeqParams> }>(
    '/audit/:seq',
    { ...readers, schema: { params: SeqParams } },
    async (request) => {
      request.idv.audited = false;
      const row = await audit.get(Number(request.params.seq));
      if (!row) throw new CoreError('NOT_FOUND', `No audit row ${request.params.seq}.`);
      return row;
    },
  );

  app.post('/audit/verify', readers, async (request) => {
    const result = await audit.verifyChain();
    request.idv.event = result.ok ? 'audit.chain_ok' : 'audit.chain_broken';
    return result;
  });

  app.get<{ Querystring: Static<typeof StatsQuery> }>(
    '/audit/stats',
    { ...readers, schema: { querystring: StatsQuery } },
    async (request) => {
      request.idv.audited = false;
      return { days: await audit.dailyStats(Math.min(Math.max(Number(request.query.days ?? 30), 1), 366)) };
    },
  );
}
