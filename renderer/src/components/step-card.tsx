import type { StepName, StepOutcome } from '../../../core/http/routes/console/api-types';
import { formatCount } from '../format';
import { Spinner } from './notice';

/** What the operator sees of one step while the verification runs. */
export type StepState =
  | { kind: 'waiting' }
  | { kind: 'running' }
  | { kind: 'skipped' }
  | { kind: 'unavailable' }
  | { kind: 'error'; message: string }
  | { kind: 'done'; outcome: StepOutcome };

export const STEP_TITLES: Record<StepName, string> = {
  fingerprint: 'Fingerprint',
  face_match: 'Face match',
  id_card_check: 'ID card security feature',
};

const REASONS: Record<string, string> = {
  no_match: 'The fingerprint does not match the one enrolled for this number.',
  not_enrolled: 'No fingerprint is enrolled for this mobile number. Enroll it first.',
  reenrollment_required: 'The enrolled fingerprint was made with an older model: enroll it again.',
  no_face_detected: 'No face was found in one of the images. Retake the photo with the face fully visible.',
  poor_quality: 'The image quality is too low. Retake it in good light, without blur or glare.',
  feature_not_found: 'The required security feature was not found on the ID card.',
  face_mismatch: 'The selfie does not match the portrait on the ID card.',
};

/** The step as the object of a sentence ("Rejected at the ID card check"). */
export const STEP_PHRASES: Record<StepName, string> = {
  fingerprint: 'the fingerprint check',
  face_match: 'the face match',
  id_card_check: 'the ID card check',
};

/** Plain-language reason of a rejection, falling back to the server's message. */
export function plainReason(outcome: StepOutcome): string {
  return (outcome.reason && REASONS[outcome.reason]) || outcome.message;
}

/** The server's own explanation when it says more than the plain reason (e.g. which card features were needed). */
export function serverDetail(outcome: StepOutcome): string | null {
  return outcome.message && outcome.message !== plainReason(outcome) ? outcome.message : null;
}

function formatScore(value: number): string {
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(3);
}

/** How rare this score is among impostors, in words (estimates past a million are tail extrapolations). */
export function scoreRarity(oneInN: number): string {
  if (oneInN >= 1_000_000) return 'impostors score this high less than once in a million';
  return `impostors score this high about once in ${formatCount(oneInN)}`;
}

/** One step of the verification: status, score against threshold, and the two false-match rates, each named. */
export function StepCard({ step, state }: { step: StepName; state: StepState }) {
  const title = STEP_TITLES[step];
  const status =
    state.kind === 'done' ? (state.outcome.status === 'SUCCESS' ? 'passed' : 'rejected') : state.kind;
  const outcome = state.kind === 'done' ? state.outcome : null;
  const detail = outcome ? serverDetail(outcome) : null;
  return (
    <li className={`step ${status}`} aria-label={`${title} step`} data-status={status}>
      <div className="step-head">
        <strong>{title}</strong>
        <span className="badge">
          {state.kind === 'running' ? (
            <Spinner label="Running" />
          ) : status === 'unavailable' ? (
            'not available yet'
          ) : (
            status
          )}
        </span>
      </div>
      {outcome && (
        <div className="step-body">
          <p>
            Score <strong>{formatScore(outcome.score)}</strong>
            {outcome.threshold !== undefined && <> against threshold {formatScore(outcome.threshold)}</>}
          </p>
          <dl className="rates">
            {outcome.thresholdOneInN !== undefined && (
              <div>
                <dt>Threshold</dt>
                <dd>set to 1 false match in {formatCount(outcome.thresholdOneInN)}</dd>
              </div>
            )}
            {outcome.scoreOneInN !== undefined && (
              <div>
                <dt>This score</dt>
                <dd>{scoreRarity(outcome.scoreOneInN)}</dd>
              </div>
            )}
          </dl>
          {outcome.status === 'REJECTED' ? (
            <p className="error">{plainReason(outcome)}</p>
          ) : (
            <p className="muted">{outcome.message}</p>
          )}
          {outcome.status === 'REJECTED' && detail && <p className="muted small">{detail}</p>}
        </div>
      )}
      {state.kind === 'unavailable' && (
        <p className="muted step-body">
          This engine is not available yet on this server; nothing was checked.
        </p>
      )}
      {state.kind === 'error' && <p className="error step-body">{state.message}</p>}
    </li>
  );
}
