import { useState } from 'react';
import type { ThresholdSetting } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { formatCount } from '../format';
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
  const [choice, setChoice] = useState<number>(setting.oneInN);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (!setting.available) return <NotAvailable engine={name} />;
  if (setting.calibration.length === 0) {
    return (
      <Notice tone="info" title={`${name}: no calibration published`}>
        The engine uses its built-in threshold; it publishes no calibrated operating points to choose from.
      </Notice>
    );
  }
  // A 1 in N set outside the console (not a calibrated point) is still shown as what the server uses.
  const choices = setting.calibration.some((p) => p.oneInN === setting.oneInN)
    ? setting.calibration
    : [...setting.calibration, { oneInN: setting.oneInN, threshold: setting.threshold }];
  const save = async (): Promise<void> => {
    try {
      onSaved(await consoleApi.setThreshold(setting.engine, choice));
      setMessage({
        tone: 'success',
        text: `${name} threshold set to 1 in ${formatCount(choice)} false matches.`,
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
          value={choice}
          onChange={(e) => {
            setChoice(Number(e.target.value));
          }}
        >
          {choices.map((p) => (
            <option key={p.oneInN} value={p.oneInN}>
              1 in {formatCount(p.oneInN)}
              {p.threshold === null ? '' : ` (score ≥ ${p.threshold.toFixed(3)})`}
              {p.oneInN === setting.oneInN ? ' — in use' : ''}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small" data-testid={`${setting.engine}-threshold-in-use`}>
        In use: 1 false match in {formatCount(setting.oneInN)}
        {setting.isDefault ? ' (the server default; no admin has changed it)' : ''}.
      </p>
      <table aria-label={`${name} calibration`} className="compact-table">
        <thead>
          <tr>
            <th scope="col">False matches</th>
            <th scope="col">Score threshold</th>
          </tr>
        </thead>
        <tbody>
          {setting.calibration.map((p) => (
            <tr key={p.oneInN} className={p.oneInN === setting.oneInN ? 'current' : undefined}>
              <td>1 in {formatCount(p.oneInN)}</td>
              <td>{p.threshold.toFixed(3)}</td>
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
