/**
 * Every date and number the console shows, in the operator's own locale (the browser's, as its date pickers use):
 * one date style everywhere, so a filter typed as 05/01/2026 reads the same as the rows it finds.
 */

/** Day, month and year as the locale writes them in digits (what an `<input type="date">` shows). */
const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };

/** A calendar date, e.g. 05/01/2026 (en-GB) or 01/05/2026 (en-US); '—' when there is none. */
export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, DATE).format(new Date(iso));
}

/** A date and time to the second, e.g. 05/01/2026, 14:03:09 (en-GB); '—' when there is none. */
export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(locale, { ...DATE, ...TIME }).format(new Date(iso));
}

/** A whole number with the locale's digit grouping, e.g. 10,000 (en) or 10.000 (de). */
export function formatCount(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** A day of the audit statistics ("2026-01-05", a UTC day) as the locale writes day and month: 05/01 (en-GB). */
export function formatDayMonth(day: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** The instant a local calendar day (as a date input gives it, "2026-01-05") starts or ends, as ISO 8601. */
export function localDayBound(day: string, bound: 'start' | 'end'): string {
  const time = bound === 'start' ? 'T00:00:00.000' : 'T23:59:59.999';
  return new Date(`${day}${time}`).toISOString();
}
