import type { AuditLog, AuditQuery, AuditRow } from '../audit-log.js';

const COLUMNS: (keyof AuditRow)[] = [
  'seq',
  'time',
  'requestId',
  'method',
  'route',
  'keyId',
  'authOutcome',
  'httpStatus',
  'resultStatus',
  'failedStep',
  'reason',
  'scores',
  'latencyMs',
  'mobileMasked',
  'event',
  'prevHash',
  'hash',
];

/** One CSV cell: quoted when needed, and defused when a spreadsheet would read it as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  // Cells starting with = + - @ run as formulas in spreadsheets (CSV injection); numbers are left alone.
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * CSV of the audit rows matching a filter, newest first, produced page by page (keyset on seq) so an export of
 * 100k rows streams in bounded memory.
 */
export async function* auditCsv(
  audit: AuditLog,
  filter: Omit<AuditQuery, 'beforeSeq' | 'limit'>,
): AsyncGenerator<string> {
  yield COLUMNS.join(',') + '\n';
  let beforeSeq: number | undefined;
  for (;;) {
    const rows = await audit.query({
      ...filter,
      ...(beforeSeq === undefined ? {} : { beforeSeq }),
      limit: 1000,
    });
    if (rows.length === 0) return;
    yield rows.map((row) => COLUMNS.map((c) => csvCell(row[c])).join(',') + '\n').join('');
    beforeSeq = rows.at(-1)!.seq;
  }
}
