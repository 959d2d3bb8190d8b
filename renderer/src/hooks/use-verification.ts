import { useCallback, useState } from 'react';
import type { StepName } from '../../../core/http/routes/console/api-types';
import { ApiError, errorMessage } from '../api/client';
import { consoleApi } from '../api/console-api';
import type { StepState } from '../components/step-card';

/** The inputs of one verification. */
export interface VerificationInput {
  mobile: string;
  fingerprint: File;
  selfie: File;
  idCard: File;
}

export const STEPS: StepName[] = ['fingerprint', 'face_match', 'id_card_check'];

const IDLE: Record<StepName, StepState> = {
  fingerprint: { kind: 'waiting' },
  face_match: { kind: 'waiting' },
  id_card_check: { kind: 'waiting' },
};

function runStep(step: StepName, input: VerificationInput) {
  const form = new FormData();
  switch (step) {
    case 'fingerprint':
      form.append('mobile_number', input.mobile);
      form.append('fingerprint', input.fingerprint);
      return consoleApi.verifyFingerprint(form);
    case 'face_match':
      form.append('selfie', input.selfie);
      form.append('id_card', input.idCard);
      return consoleApi.faceMatch(form);
    case 'id_card_check':
      form.append('id_card', input.idCard);
      return consoleApi.idCard(form);
  }
}

/** Overall result: SUCCESS only when every step ran and passed. */
export type Verdict = 'running' | 'SUCCESS' | 'REJECTED' | 'INCOMPLETE' | null;

/**
 * Run the three checks of /v2/verify in its order (fingerprint → face match → ID card), one call each so the
 * operator sees every step complete; stop at the first rejection, error or missing engine.
 */
export function useVerification() {
  const [steps, setSteps] = useState<Record<StepName, StepState>>(IDLE);
  const [verdict, setVerdict] = useState<Verdict>(null);

  const run = useCallback(async (input: VerificationInput) => {
    setVerdict('running');
    const current: Record<StepName, StepState> = { ...IDLE };
    const show = (): void => {
      setSteps({ ...current });
    };
    for (const [index, step] of STEPS.entries()) {
      current[step] = { kind: 'running' };
      show();
      let stop: Verdict = null;
      try {
        const outcome = await runStep(step, input);
        current[step] = { kind: 'done', outcome };
        if (outcome.status === 'REJECTED') stop = 'REJECTED';
      } catch (error) {
        current[step] =
          error instanceof ApiError && error.notAvailable
            ? { kind: 'unavailable' }
            : { kind: 'error', message: errorMessage(error) };
        stop = 'INCOMPLETE';
      }
      if (stop) {
        for (const later of STEPS.slice(index + 1)) current[later] = { kind: 'skipped' };
        show();
        setVerdict(stop);
        return;
      }
      show();
    }
    setVerdict('SUCCESS');
  }, []);

  const reset = useCallback(() => {
    setSteps(IDLE);
    setVerdict(null);
  }, []);

  return { steps, verdict, run, reset };
}
