import { useCallback, useState } from 'react';
import type {
  EngineAvailability,
  StepName,
  VerifyStreamEvent,
} from '../../../core/http/routes/console/api-types';
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

/** The steps in the order the server runs them (shown before the first one starts). */
export const STEPS: StepName[] = ['fingerprint', 'face_match', 'id_card_check'];

const ENGINE_OF: Record<StepName, keyof EngineAvailability> = {
  fingerprint: 'fingerprint',
  face_match: 'face',
  id_card_check: 'document',
};

const IDLE: Record<StepName, StepState> = {
  fingerprint: { kind: 'waiting' },
  face_match: { kind: 'waiting' },
  id_card_check: { kind: 'waiting' },
};

/** Overall result: SUCCESS only when every step ran and passed. */
export type Verdict = 'running' | 'SUCCESS' | 'REJECTED' | 'INCOMPLETE' | null;

/** The verdict and why a run ended early: the failed step, or the error that stopped it. */
export interface VerificationState {
  steps: Record<StepName, StepState>;
  verdict: Verdict;
  failedStep: StepName | null;
  error: string;
}

const CLEARED: VerificationState = { steps: IDLE, verdict: null, failedStep: null, error: '' };

/** Steps that never started are skipped once the run ends. */
function skipRest(steps: Record<StepName, StepState>): Record<StepName, StepState> {
  const next = { ...steps };
  for (const step of STEPS) if (next[step].kind === 'waiting') next[step] = { kind: 'skipped' };
  return next;
}

/** The state after one line of the server's stream. */
export function applyEvent(state: VerificationState, event: VerifyStreamEvent): VerificationState {
  switch (event.type) {
    case 'step':
      return {
        ...state,
        steps: {
          ...state.steps,
          [event.step]:
            event.phase === 'started' ? { kind: 'running' } : { kind: 'done', outcome: event.outcome },
        },
      };
    case 'result':
      return {
        ...state,
        steps: skipRest(state.steps),
        verdict: event.status,
        failedStep: event.failedStep ?? null,
      };
    case 'error': {
      const steps = { ...state.steps };
      for (const step of STEPS)
        if (steps[step].kind === 'running') steps[step] = { kind: 'error', message: event.message };
      return { ...state, steps: skipRest(steps), verdict: 'INCOMPLETE', error: event.message };
    }
  }
}

/**
 * Run a verification on the server (the same pipeline as /v2/verify: fingerprint → face match → ID card, stopping
 * at the first rejection) and follow its steps live as the server streams them.
 */
export function useVerification(engines: EngineAvailability) {
  const [state, setState] = useState<VerificationState>(CLEARED);

  const run = useCallback(
    async (input: VerificationInput) => {
      let current: VerificationState = { ...CLEARED, verdict: 'running' };
      setState(current);
      const form = new FormData();
      form.append('mobile_number', input.mobile);
      form.append('fingerprint', input.fingerprint);
      form.append('selfie', input.selfie);
      form.append('id_card', input.idCard);
      try {
        await consoleApi.verify(form, (event) => {
          current = applyEvent(current, event);
          setState(current);
        });
        if (current.verdict === 'running') {
          current = applyEvent(current, {
            type: 'error',
            httpStatus: 0,
            code: 'STREAM_ENDED',
            message: 'The connection closed before the verification finished.',
          });
        }
      } catch (error) {
        const steps = { ...current.steps };
        if (error instanceof ApiError && error.notAvailable)
          for (const step of STEPS) if (!engines[ENGINE_OF[step]]) steps[step] = { kind: 'unavailable' };
        current = { ...current, steps: skipRest(steps), verdict: 'INCOMPLETE', error: errorMessage(error) };
      }
      setState(current);
    },
    [engines],
  );

  const reset = useCallback(() => {
    setState(CLEARED);
  }, []);

  return { ...state, run, reset };
}
