import { useState, type SyntheticEvent } from 'react';
import type { AuditFilters } from '../api/console-api';
import { localDayBound } from '../format';

const FIELDS: {
  key: keyof AuditFilters;
  label: string;
  type?: string;
  placeholder?: string;
  options?: string[];
}[] = [
  { key: 'from', label: 'From', type: 'date' },
  { key: 'to', label: 'To', type: 'date' },
  { key: 'route', label: 'Route', placeholder: '/v2/verify' },
  { key: 'httpStatus', label: 'HTTP status', placeholder: '200' },
  { key: 'resultStatus', label: 'Result', options: ['', 'SUCCESS', 'REJECTED', 'ERROR'] },
  { key: 'failedStep', label: 'Failed step', options: ['', 'fingerprint', 'face_match', 'id_card_check'] },
  { key: 'keyId', label: 'Caller id', placeholder: 'key id or console:user' },
  { key: 'mobile', label: 'Mobile number', placeholder: '+447911123456' },
];

/** Dates are whole days of the operator's calendar, as the rows show times: "to" includes its day. */
function toQuery(values: AuditFilters): AuditFilters {
  const query: AuditFilters = { ...values };
  if (values.from) query.from = localDayBound(values.from, 'start');
  if (values.to) query.to = localDayBound(values.to, 'end');
  return query;
}

/** The filter bar of the audit table. */
export function AuditFilterBar({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const [values, setValues] = useState<AuditFilters>({});
  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    onApply(toQuery(values));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Audit filters">
      {FIELDS.map((f) => (
        <label key={f.key} className="field compact">
          <span>{f.label}</span>
          {f.options ? (
            <select
              value={values[f.key] ?? ''}
              onChange={(e) => {
                setValues({ ...values, [f.key]: e.target.value });
              }}
            >
              {f.options.map((o) => (
                <option key={o} value={o}>
                  {o || 'any'}
                </option>
              ))}
            </select>
          ) : (
            <input
              type={f.type ?? 'text'}
              placeholder={f.placeholder}
              value={values[f.key] ?? ''}
              onChange={(e) => {
                setValues({ ...values, [f.key]: e.target.value });
              }}
            />
          )}
        </label>
      ))}
      <div className="row">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setValues({});
            onApply({});
          }}
        >
          Reset
        </button>
      </div>
    </form>
  );
}
