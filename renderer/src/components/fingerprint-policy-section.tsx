import { useState, type SyntheticEvent } from 'react';
import type { FingerprintPolicySetting, ThresholdSetting } from '../../../core/http/routes/console/api-types';
import { errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import { Notice } from './notice';

const READERS = [
  {
    value: 'upright',
    label: 'Fixed in place',
    hint: 'A finger is laid on it roughly the same way each time: prints turned by more than 60° score less, past 120° not at all.',
  },
  {
    value: 'any',
    label: 'May face any way',
    hint: 'Handheld or loose readers: a print matches at any turn. Slightly more false matches at the same score.',
  },
] as const;

/**
 * The fingerprint reader (which calibration the threshold comes from) and the enrollment policy: duplicates,
 * quality floor, minimum minutiae. Saving answers the threshold too, since its calibration follows the reader.
 */
export function FingerprintPolicySection({
  policy,
  onSaved,
}: {
  policy: FingerprintPolicySetting;
  onSaved: (policy: FingerprintPolicySetting, threshold: ThresholdSetting) => void;
}) {
  const [turn, setTurn] = useState(policy.turn);
  const [dedup, setDedup] = useState(policy.dedup);
  const [qualityFloor, setQualityFloor] = useState(String(policy.qualityFloor));
  const [minMinutiae, setMinMinutiae] = useState(String(policy.minMinutiae));
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    try {
      const saved = await consoleApi.setFingerprintPolicy({
        turn,
        dedup,
        qualityFloor: Number(qualityFloor),
        minMinutiae: Number(minMinutiae),
      });
      onSaved(saved.fingerprint, saved.threshold);
      const reader = READERS.find((r) => r.value === saved.fingerprint.turn)!.label.toLowerCase();
      setMessage({
        tone: 'success',
        text:
          `Fingerprint settings saved: reader ${reader}, duplicates ${saved.fingerprint.dedup === 'reject' ? 'refused' : 'flagged'}, ` +
          `quality floor ${saved.fingerprint.qualityFloor}, at least ${saved.fingerprint.minMinutiae} minutiae.`,
      });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    }
  };

  return (
    <form aria-label="Fingerprint settings" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>Fingerprint reader</legend>
        {READERS.map((r) => (
          <label key={r.value} className="check choice">
            <input
              type="radio"
              name="fingerprint-turn"
              value={r.value}
              checked={turn === r.value}
              onChange={() => {
                setTurn(r.value);
              }}
            />
            <span>
              <strong>{r.label}</strong>
              <span className="muted small"> {r.hint}</span>
            </span>
          </label>
        ))}
        <p className="hint muted">
          Each reader setting has its own calibration: the threshold keeps its &quot;1 in N&quot; and its
          score follows. Enrolled prints need no re-enrollment.
        </p>
      </fieldset>
      <label className="field">
        <span>A finger enrolled under another number</span>
        <select
          value={dedup}
          onChange={(e) => {
            setDedup(e.target.value === 'reject' ? 'reject' : 'flag');
          }}
        >
          <option value="flag">Enroll and flag it (audited)</option>
          <option value="reject">Refuse the enrollment (409)</option>
        </select>
      </label>
      <div className="row">
        <label className="field">
          <span>Enrollment quality floor (0-100)</span>
          <input
            type="number"
            min={0}
            max={100}
            step={1}
            value={qualityFloor}
            onChange={(e) => {
              setQualityFloor(e.target.value);
            }}
            required
          />
        </label>
        <label className="field">
          <span>Minimum minutiae</span>
          <input
            type="number"
            min={1}
            max={100}
            step={1}
            value={minMinutiae}
            onChange={(e) => {
              setMinMinutiae(e.target.value);
            }}
            required
          />
        </label>
      </div>
      <button type="submit" className="primary">
        Save fingerprint settings
      </button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}
