/** What a 2-digit-year MRZ date is: decides the century window. */
export type DateKind = 'birth' | 'expiry' | 'issue';

/**
 * ISO 8601 date (YYYY-MM-DD) of an MRZ YYMMDD date. Birth and issue dates are in the past: the latest
 * century that does not put them after `today`. Expiry dates run up to ~20 years ahead: the century that
 * puts them within [today − 80 years, today + 20 years]. Null for malformed or impossible dates
 * (an unknown day or month is written `<<` and gives null too).
 */
export function mrzDateToIso(yymmdd: string, kind: DateKind, today: Date = new Date()): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(2000 + yy, month)) return null;
  const thisYear = today.getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  if (kind === 'expiry') {
    if (year > thisYear + 20) year -= 100;
  } else {
    const iso = toIso(year, month, day);
    if (iso > today.toISOString().slice(0, 10)) year -= 100;
  }
  if (day > daysIn(year, month)) return null;
  return toIso(year, month, day);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toIso(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/**
 * Dates written on the visual zone, as ISO: `12 AUG 1974`, `12 AUG/AOUT 74`, `12.08.1974`, `12/08/1974`,
 * `08/31/2014` (read as US month/day when the second number cannot be a month), `1974-08-12`.
 */
export function printedDatesIn(text: string): string[] {
  const out: string[] = [];
  const upper = text.toUpperCase();
  for (const m of upper.matchAll(/\b(\d{1,2})\s*([A-Z]{3})[A-Z]*(?:\/[A-Z]+)?\s*(\d{4}|\d{2})\b/g)) {
    const month = MONTHS.indexOf(m[2] ?? '') + 1;
    const year = expandYear(m[3] ?? '');
    if (month > 0 && year) out.push(toIso(year, month, Number(m[1])));
  }
  for (const m of upper.matchAll(/\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b/g)) {
    let day = Number(m[1]);
    let month = Number(m[2]);
    // US licences write MM/DD/YYYY: swap when the second number cannot be a month.
    if (month > 12 && day <= 12) [day, month] = [month, day];
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) out.push(toIso(Number(m[3]), month, day));
  }
  for (const m of upper.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push(`${m[1]}-${m[2]}-${m[3]}`);
  return out;
}

function expandYear(text: string): number | null {
  if (text.length === 4) return Number(text);
  if (text.length !== 2) return null;
  const yy = Number(text);
  const now = new Date().getUTCFullYear();
  return 2000 + yy > now + 20 ? 1900 + yy : 2000 + yy;
}
