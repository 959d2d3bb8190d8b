import { useEffect, useRef } from 'react';
import type { AuditRowView } from '../../../core/http/routes/console/api-types';
import { formatDateTime } from '../format';

function scoresOf(text: string | null): [string, number][] {
  if (!text) return [];
  try {
    return Object.entries(JSON.parse(text) as Record<string, number>);
  } catch {
    return [];
  }
}

/** A caller as people know it (a key's description, a console account), else its id; '—' for none. */
export function callerName(keyId: string | null, callers: Record<string, string>): string {
  if (!keyId) return '—';
  return callers[keyId] ?? keyId;
}

/** Detail drawer of one audit row (a modal side sheet; Escape closes it). */
export function AuditDrawer({
  row,
  callers,
  onClose,
}: {
  row: AuditRowView | null;
  callers: Record<string, string>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (row && !dialog.open) dialog.showModal();
    if (!row && dialog.open) dialog.close();
  }, [row]);
  const fields: [string, string][] = row
    ? [
        ['Time', formatDateTime(row.time)],
        ['Request id', row.requestId],
        ['Route', `${row.method} ${row.route}`],
        ['HTTP status', String(row.httpStatus)],
        ['Result', row.resultStatus ?? '—'],
        ['Failed step', row.failedStep ?? '—'],
        ['Reason', row.reason ?? '—'],
        ['Caller', row.keyId ? callerName(row.keyId, callers) : '(no key)'],
        ['Key id', row.keyId ?? '—'],
        ['Auth outcome', row.authOutcome],
        ['Mobile (masked)', row.mobileMasked ?? '—'],
        ['Event', row.event ?? '—'],
        ['Latency', `${row.latencyMs.toFixed(1)} ms`],
        ['Previous hash', row.prevHash],
        ['Row hash', row.hash],
      ]
    : [];
  return (
    <dialog ref={ref} className="drawer" aria-labelledby="drawer-title" onCancel={onClose} onClose={onClose}>
      {row && (
        <>
          <div className="row spread">
            <h2 id="drawer-title">Audit row {row.seq}</h2>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
          <dl className="details">
            {fields.map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd className={name.includes('hash') ? 'mono' : undefined}>{value}</dd>
              </div>
            ))}
            {scoresOf(row.scores).map(([name, value]) => (
              <div key={name}>
                <dt>Score: {name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </dialog>
  );
}
