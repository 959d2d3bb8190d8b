import { useCallback, useEffect, useState } from 'react';
import type {
  AuditRowView,
  ChainCheckResponse,
  DailyStatView,
} from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi, type AuditFilters } from '../api/console-api';
import { RejectionChart, VolumeChart } from '../components/audit-charts';
import { AuditDrawer, callerName } from '../components/audit-drawer';
import { AuditFilterBar } from '../components/audit-filters';
import { Notice, Spinner } from '../components/notice';
import { formatDateTime } from '../format';

/** Results and audit: filtered keyset-paged table, detail drawer, CSV export, chain check, daily charts. */
export function AuditScreen() {
  const [filters, setFilters] = useState<AuditFilters>({});
  // Cursors of the pages visited: keyset paging by seq, so page 2,000 costs what page 1 costs.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [rows, setRows] = useState<AuditRowView[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [callers, setCallers] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [selected, setSelected] = useState<AuditRowView | null>(null);
  const [chain, setChain] = useState<ChainCheckResponse | 'running' | null>(null);
  const [stats, setStats] = useState<DailyStatView[] | null>(null);
  const cursor = cursors.at(-1);

  const load = useCallback(async (f: AuditFilters, before: number | undefined) => {
    setRows(null);
    setError('');
    try {
      const page = await consoleApi.auditPage(f, before);
      setRows(page.rows);
      setNext(page.nextBefore);
      setCallers(page.callers);
    } catch (caught) {
      setError(errorMessage(caught));
      setRows([]);
    }
  }, []);

  useEffect(() => void load(filters, cursor), [load, filters, cursor]);
  useEffect(() => {
    consoleApi.auditStats(30).then(
      (s) => {
        setStats(s.days);
      },
      (caught: unknown) => {
        setError(errorMessage(caught));
      },
    );
  }, []);

  const verify = async (): Promise<void> => {
    setChain('running');
    try {
      setChain(await consoleApi.verifyChain());
    } catch (caught) {
      setChain(null);
      setError(errorMessage(caught));
    }
  };

  return (
    <section aria-labelledby="audit-title">
      <div className="row spread">
        <h1 id="audit-title">Results and audit</h1>
        <div className="row">
          <button type="button" onClick={() => void verify()} disabled={chain === 'running'}>
            Verify hash chain
          </button>
          <a className="button" href={consoleApi.auditExportUrl(filters)} download>
            Export CSV
          </a>
        </div>
      </div>
      <div aria-live="polite">
        {chain === 'running' && <Spinner label="Checking every row of the chain…" />}
        {chain && chain !== 'running' && (
          <Notice tone={chain.ok ? 'success' : 'error'} title={chain.ok ? 'Chain intact' : 'Chain broken'}>
            {chain.message}
          </Notice>
        )}
      </div>
      {stats && (
        <div className="charts">
          <VolumeChart days={stats} />
          <RejectionChart days={stats} />
        </div>
      )}
      <AuditFilterBar
        onApply={(f) => {
          setFilters(f);
          setCursors([undefined]);
        }}
      />
      {error && <Notice tone="error">{error}</Notice>}
      <div className="card table-card">
        {rows === null ? (
          <Spinner label="Loading audit rows…" />
        ) : rows.length === 0 ? (
          <p className="muted">No request matches these filters.</p>
        ) : (
          <table aria-label="Audit log">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col">Route</th>
                <th scope="col">HTTP</th>
                <th scope="col">Result</th>
                <th scope="col">Failed step</th>
                <th scope="col">Caller</th>
                <th scope="col">Mobile</th>
                <th scope="col">ms</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.seq}
                  className="clickable"
                  tabIndex={0}
                  onClick={() => {
                    setSelected(row);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') setSelected(row);
                  }}
                  aria-label={`Audit row ${row.seq}`}
                >
                  <td>{row.seq}</td>
                  <td>{formatDateTime(row.time)}</td>
                  <td>
                    <code>
                      {row.method} {row.route}
                    </code>
                  </td>
                  <td>{row.httpStatus}</td>
                  <td>
                    {row.resultStatus ? (
                      <span className={`badge ${row.resultStatus === 'SUCCESS' ? 'ok' : 'bad'}`}>
                        {row.resultStatus}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{row.failedStep ?? '—'}</td>
                  <td title={row.keyId ?? undefined}>{callerName(row.keyId, callers)}</td>
                  <td>{row.mobileMasked ?? '—'}</td>
                  <td>{Math.round(row.latencyMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="row spread pager">
          <button
            type="button"
            disabled={cursors.length <= 1}
            onClick={() => {
              setCursors(cursors.slice(0, -1));
            }}
          >
            Newer
          </button>
          <span className="muted">Page {cursors.length}</span>
          <button
            type="button"
            disabled={next === null}
            onClick={() => {
              if (next !== null) setCursors([...cursors, next]);
            }}
          >
            Older
          </button>
        </div>
      </div>
      <AuditDrawer
        row={selected}
        callers={callers}
        onClose={() => {
          setSelected(null);
        }}
      />
    </section>
  );
}
