import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { StepResult } from '../../../contracts/step-result.js';
import type { Services } from '../../../services/container.js';
import { maskMobile, normaliseMobile } from '../../../mobile.js';
import { readValidatedMultipart } from '../../intake.js';
import type { CalibrationPoint, EnrollResponse, StepName, StepOutcome } from './api-types.js';
import { calibrationFor, toFaceFeedback } from './engine-capabilities.js';
import { requireRole, userOf } from './guard.js';

function notAvailable(engine: string): CoreError {
  return new CoreError('NOT_IMPLEMENTED', `The ${engine} engine is not available yet on this server.`);
}

/** The console session acts as the caller: audited as `console:<username>`, never with an API key. */
function actAsConsole(request: FastifyRequest): void {
  request.idv.keyId = `console:${userOf(request).username}`;
  request.idv.authOutcome = 'console';
  request.idv.audited = true;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A step result as the console shows it: the threshold with its calibrated "1 in N" (the calibration point at that
 * threshold) and how rare the score is among impostors (from the engine's estimated FMR of the score).
 */
export function toOutcome(step: StepName, result: StepResult, calibration?: CalibrationPoint[]): StepOutcome {
  const extra = result.extra ?? {};
  const threshold = num(extra.threshold);
  const fmr = num(extra.estimated_fmr) ?? num(extra.fmr);
  const scoreOneInN = fmr && fmr > 0 ? Math.round(1 / fmr) : undefined;
  const point =
    threshold === undefined
      ? undefined
      : calibration?.find(
          (p) => Math.abs(p.threshold - threshold) <= 1e-3 * Math.max(1, Math.abs(threshold)),
        );
  const thresholdOneInN = num(extra.threshold_one_in_n) ?? point?.oneInN;
  return {
    step,
    status: result.status,
    score: result.score,
    message: result.message,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(threshold === undefined ? {} : { threshold }),
    ...(thresholdOneInN === undefined ? {} : { thresholdOneInN }),
    ...(scoreOneInN === undefined ? {} : { scoreOneInN }),
    extra,
  };
}

function recordStep(request: FastifyRequest, outcome: StepOutcome, mobile?: string): void {
  request.idv.resultStatus = outcome.status;
  request.idv.scores = { [outcome.step]: outcome.score };
  if (outcome.status === 'REJECTED') {
    request.idv.failedStep = outcome.step;
    if (outcome.reason) request.idv.reason = outcome.reason;
  }
  if (mobile) request.idv.mobile = mobile;
}

/**
 * Operator actions run server-side on the console session (POST /api/console/run/*): the same engines as the
 * public API, so the browser never holds an API key. Each engine that is not built answers 501.
 */
export function registerRunRoutes(app: FastifyInstance, services: Services): void {
  const operators = { preHandler: requireRole('operator', 'admin') };

  app.post('/run/fingerprint-preview', operators, async (request) => {
    actAsConsole(request);
    request.idv.audited = false;
    const engine = services.fingerprint;
    if (!engine) throw notAvailable('fingerprint');
    const form = await readValidatedMultipart(request, { fileFields: [['file']] }, services.limits);
    return engine.preview(form.images.file!);
  });

  app.post('/run/enroll', operators, async (request, reply): Promise<EnrollResponse> => {
    actAsConsole(request);
    const engine = services.fingerprint;
    if (!engine) throw notAvailable('fingerprint');
    const form = await readValidatedMultipart(
      request,
      { textFields: ['mobile_number'], fileFields: [['file']] },
      services.limits,
    );
    const mobile = normaliseMobile(form.text.mobile_number);
    request.idv.mobile = mobile;
    const details = await engine.enroll(mobile, form.images.file!, { requestId: request.id });
    request.idv.resultStatus = 'SUCCESS';
    request.idv.event = 'fingerprint.enrolled';
    reply.code(200);
    return { status: 'SUCCESS', message: 'Fingerprint enrolled.', mobileMasked: maskMobile(mobile), details };
  });

  app.post('/run/verify-fingerprint', operators, async (request): Promise<StepOutcome> => {
    actAsConsole(request);
    const engine = services.fingerprint;
    if (!engine) throw notAvailable('fingerprint');
    const form = await readValidatedMultipart(
      request,
      { textFields: ['mobile_number'], fileFields: [['fingerprint']] },
      services.limits,
    );
    const mobile = normaliseMobile(form.text.mobile_number);
    const outcome = toOutcome(
      'fingerprint',
      await engine.verify(mobile, form.images.fingerprint!),
      calibrationFor(services, 'fingerprint')?.points,
    );
    recordStep(request, outcome, mobile);
    return outcome;
  });

  app.post('/run/face-match', operators, async (request): Promise<StepOutcome> => {
    actAsConsole(request);
    const engine = services.face;
    if (!engine) throw notAvailable('face');
    const form = await readValidatedMultipart(
      request,
      { fileFields: [['selfie'], ['id_card']] },
      services.limits,
    );
    const outcome = toOutcome(
      'face_match',
      await engine.match(form.images.selfie!, form.images.id_card!),
      calibrationFor(services, 'face')?.points,
    );
    recordStep(request, outcome);
    return outcome;
  });

  app.post('/run/id-card', operators, async (request): Promise<StepOutcome> => {
    actAsConsole(request);
    const engine = services.document;
    if (!engine) throw notAvailable('document');
    const form = await readValidatedMultipart(request, { fileFields: [['id_card']] }, services.limits);
    const outcome = toOutcome('id_card_check', await engine.checkIdCard(form.images.id_card!));
    recordStep(request, outcome);
    return outcome;
  });

  app.post('/run/face-quality', operators, async (request) => {
    actAsConsole(request);
    // Live camera feedback runs several times a second: not an audited verification.
    request.idv.audited = false;
    const engine = services.face;
    if (!engine) throw notAvailable('face');
    const form = await readValidatedMultipart(request, { fileFields: [['image']] }, services.limits);
    return toFaceFeedback(await engine.quality(form.images.image!));
  });
}
