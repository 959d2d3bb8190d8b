import { useState } from 'react';
import type { ThresholdSetting } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { NotAvailable, Notice } from './notice';

const NAMES = { face: 'Face matching', fingerprint: 'Fingerprint matching' } as const;

/** Pick a matcher's threshold as "1 in N false matches", with the calibration it comes from. */
export function ThresholdSection({
  setting,
  onSaved,
}: {
  setting: ThresholdSetting;
  onSaved: (s: ThresholdSetting) => void;
}) {
  const name = NAMES[setting.engine];
  const [choice, setChoice] = useState<number | null>(
    setting.oneInN ?? setting.calibration[0]?.oneInN ?? null,
  );
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (!setting.available) return <NotAvailable engine={name} />;
  if (setting.calibration.length === 0) {
    return (
      <Notice tone="info" title={`${name}: no calibration published`}>
        The engine uses its built-in threshold; it publishes no calibrated operating points to choose from.
      </Notice>
    );
  }
  const save = async (): Promise<void> => {
    if (choice === null) return;
    try {
      onSaved(await consoleApi.setThreshold(setting.engine, choice));
      setMessage({
        tone: 'success',
        text: `${name} threshold set to 1 in ${choice.toLocaleString('en')} false matches.`,
      });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };
  return (
    <div className="threshold">
      <label className="field">
        <span>{name}: accepted false matches</span>
        <select
          value={choice ?? ''}
          onChange={(e) => {
            setChoice(Number(e.target.value));
          }}
        >
          {setting.calibration.map((p) => (
            <option key={p.oneInN} value={p.oneInN}>
              1 in {p.oneInN.toLocaleString('en')} (score ≥ {p.threshold.toFixed(3)})
            </option>
          ))}
        </select>
      </label>
      <table aria-label={`${name} calibration`} className="compact-table">
        <thead>
          <tr>
            <th scope="col">False matches</th>
            <th scope="col">Threshold</th>
            <th scope="col">False non-matches</th>
          </tr>
        </thead>
        <tbody>
          {setting.calibration.map((p) => (
            <tr key={p.oneInN} className={p.oneInN === setting.oneInN ? 'current' : undefined}>
              <td>1 in {p.oneInN.toLocaleString('en')}</td>
              <td>{p.threshold.toFixed(3)}</td>
              <td>{p.fnmr === undefined ? '—' : `${(p.fnmr * 100).toFixed(2)}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {setting.calibrationSource && <p className="muted small">Calibration: {setting.calibrationSource}</p>}
      <button type="button" className="primary" onClick={() => void save()}>
        Save {name.toLowerCase()} threshold
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </div>
  );
}
