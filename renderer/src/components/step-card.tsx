import type { StepName, StepOutcome } from '../../../core/http/routes/console/api-types';
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

/** Plain-language reason of a rejection, falling back to the server's message. */
export function plainReason(outcome: StepOutcome): string {
  return (outcome.reason && REASONS[outcome.reason]) || outcome.message;
}

function formatScore(value: number): string {
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(3);
}

/** How rare a score is among impostors, in words (estimates past a million are tail extrapolations). */
export function scoreRarity(oneInN: number): string {
  if (oneInN >= 1_000_000) return 'An impostor scores this high less than once in a million comparisons.';
  return `An impostor scores this high about 1 time in ${oneInN.toLocaleString('en')}.`;
}

/** One step of the verification: status, score against threshold and its "1 in N" meaning. */
export function StepCard({ step, state }: { step: StepName; state: StepState }) {
  const title = STEP_TITLES[step];
  const status =
    state.kind === 'done' ? (state.outcome.status === 'SUCCESS' ? 'passed' : 'rejected') : state.kind;
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
      {state.kind === 'done' && (
        <div className="step-body">
          <p>
            Score <strong>{formatScore(state.outcome.score)}</strong>
            {state.outcome.threshold !== undefined && (
              <> against threshold {formatScore(state.outcome.threshold)}</>
            )}
            {state.outcome.thresholdOneInN !== undefined && (
              <> (1 false match in {state.outcome.thresholdOneInN.toLocaleString('en')})</>
            )}
          </p>
          {state.outcome.scoreOneInN !== undefined && (
            <p className="muted">{scoreRarity(state.outcome.scoreOneInN)}</p>
          )}
          {state.outcome.status === 'REJECTED' ? (
            <p className="error">{plainReason(state.outcome)}</p>
          ) : (
            <p className="muted">{state.outcome.message}</p>
          )}
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
