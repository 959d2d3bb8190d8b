import { CoreError } from '../errors.js';
import type { DecodedImage } from '../imaging/decode.js';
import type { Services } from './container.js';
import type { StepResult } from '../contracts/step-result.js';

/** The inputs of /v2/verify, validated and decoded. */
export interface VerificationInput {
  mobileE164: string;
  fingerprint: DecodedImage;
  selfie: DecodedImage;
  idCard: DecodedImage;
  /** The caller went away: the steps not yet started are not run, and the ID-card check stops its work. */
  signal?: AbortSignal;
}

/** SPEC step names, in the order /v2/verify runs them. */
export type StepName = 'fingerprint' | 'face_match' | 'id_card_check';

/** A step starting, or finishing with its engine's result (the console streams these to the operator). */
export type StepProgress =
  { step: StepName; phase: 'started' } | { step: StepName; phase: 'finished'; result: StepResult };

/** Result of the pipeline: the response body and what the audit row records. */
export interface VerificationOutcome {
  body: Record<string, unknown>;
  status: 'SUCCESS' | 'REJECTED';
  failedStep?: StepName;
  reason?: string;
  scores: Record<string, number>;
  /** Wall time of each step answered, ms, from the step's start (the route sends them as Server-Timing). */
  timings: Partial<Record<StepName, number>>;
}

/**
 * SPEC 1: fingerprint 1:1 against the number's enrollment, then selfie vs ID-card portrait, then the ID card's
 * required security feature; the first REJECTED step is the answer. The ID-card check works beside the other two
 * and the steps are answered in that order; the first rejection stops the work still running. Missing engines
 * answer 501 up front. `onProgress` hears each step's turn start and finish, in order; it does not change the
 * outcome.
 */
export async function runVerification(
  services: Services,
  input: VerificationInput,
  onProgress: (progress: StepProgress) => void = () => undefined,
): Promise<VerificationOutcome> {
  const { fingerprint, face, document } = services;
  const missing = [
    !fingerprint && 'fingerprint',
    !face && 'face matching',
    !document && 'ID-card check',
  ].filter(Boolean);
  if (!fingerprint || !face || !document) {
    throw new CoreError(
      'NOT_IMPLEMENTED',
      `Unified verification needs engines that are not built yet: ${missing.join(', ')}.`,
    );
  }
  const details: Record<string, Record<string, unknown>> = {};
  const scores: Record<string, number> = {};
  const timings: VerificationOutcome['timings'] = {};
  // Each step's wall time from its start; only the answered steps' go into the outcome.
  const spent: VerificationOutcome['timings'] = {};
  const timed = async <T>(step: StepName, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      spent[step] = Math.round(performance.now() - started);
    }
  };

  input.signal?.throwIfAborted();
  // Two lanes at once (a branch PC has 2-4 cores): the ID-card check, the longest step, from the start; the
  // fingerprint, then the face match once the fingerprint passed. The answer keeps the steps' order, and the first
  // rejection, or the caller going away, stops the work still running.
  const halt = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, halt.signal]) : halt.signal;
  const fpRun = timed('fingerprint', () => fingerprint.verify(input.mobileE164, input.fingerprint));
  const faceRun = fpRun.then((fp) =>
    fp.status === 'REJECTED' || signal.aborted
      ? null
      : timed('face_match', () => face.matchCard(input.selfie, input.idCard)),
  );
  // The face step's card analysis (decoded card, its faces, the portrait and its turn) goes to the id_card step.
  const card = faceRun.then((match) => match?.card ?? Promise.reject(new Error('No face step ran.')));
  const idRun = timed('id_card_check', () => document.checkIdCard(input.idCard, { card, signal }));
  const runs: Promise<unknown>[] = [fpRun, faceRun, card, idRun];
  // A step's failure is answered where its turn comes; a step whose turn never comes is only settled.
  for (const run of runs) run.catch(() => undefined);

  // Progress is reported in the answer's order: a step is "started" when the one before it has passed.
  const turn = (step: StepName): void => {
    input.signal?.throwIfAborted();
    onProgress({ step, phase: 'started' });
  };
  // A step's answer goes out with its wall time.
  const answered = (step: StepName, result: StepResult): StepResult => {
    timings[step] = spent[step] ?? 0;
    onProgress({ step, phase: 'finished', result });
    return result;
  };
  try {
    turn('fingerprint');
    const fp = answered('fingerprint', await fpRun);
    scores.fingerprint = fp.score;
    details.fingerprint = {
      status: fp.status,
      mobile_number: input.mobileE164,
      score: fp.score,
      message: fp.message,
      ...fp.extra,
    };
    if (fp.status === 'REJECTED') return rejected('fingerprint', fp, details, scores, timings);

    turn('face_match');
    const match = await faceRun;
    if (!match) throw new Error('The face step did not run after a passed fingerprint.');
    const fm = answered('face_match', match.result);
    scores.face_match = fm.score;
    details.face_match = { status: fm.status, score: fm.score, message: fm.message, ...fm.extra };
    if (fm.status === 'REJECTED') return rejected('face_match', fm, details, scores, timings);

    turn('id_card_check');
    const id = answered('id_card_check', await idRun);
    scores.id_card = id.score;
    details.id_card = {
      status: id.status,
      verification_score: id.score,
      feature_detected: typeof id.extra?.feature_detected === 'string' ? id.extra.feature_detected : '',
      message: id.message,
      ...id.extra,
    };
    if (id.status === 'REJECTED') return rejected('id_card_check', id, details, scores, timings);

    return {
      status: 'SUCCESS',
      scores,
      timings,
      body: {
        status: 'SUCCESS',
        message: 'Identity verified: fingerprint, face match and ID card passed.',
        details,
      },
    };
  } finally {
    // Decided: nothing keeps working for an answer already given (worker jobs stop at their next check).
    halt.abort(new Error('The verification is decided.'));
    await Promise.allSettled(runs);
  }
}

function rejected(
  step: StepName,
  result: StepResult,
  details: Record<string, Record<string, unknown>>,
  scores: Record<string, number>,
  timings: VerificationOutcome['timings'],
): VerificationOutcome {
  const outcome: VerificationOutcome = {
    status: 'REJECTED',
    failedStep: step,
    scores,
    timings,
    body: {
      step,
      status: 'REJECTED',
      score: result.score,
      message: result.message,
      reason: result.reason ?? 'rejected',
      details,
    },
  };
  if (result.reason) outcome.reason = result.reason;
  return outcome;
}
