import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError, isCoreError } from '../../errors.js';
import type { EnrollOutcome, FingerprintEngine } from '../../contracts/fingerprint-engine.js';
import type { StepResult } from '../../contracts/step-result.js';
import type { DecodedImage } from '../../imaging/decode.js';
import type { Services } from '../../services/container.js';
import { normaliseMobile } from '../../mobile.js';
import { auditedWithWrite, auditFields } from '../audit-hook.js';
import { readJsonImage, readJsonText, readValidatedMultipart } from '../intake.js';
import type { RequestAudit } from '../request-context.js';
import {
  apiKeySecurity,
  described,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  multipartBody,
} from '../schemas.js';
import { EnrollSuccess, JsonEnrollBody, VerifySuccess } from './fingerprint-schemas.js';
import { registerFingerprintAdminRoutes } from './fingerprint-admin.js';
import { notImplemented } from './not-implemented.js';
import { rejectedStep } from '../step-response.js';

/** What enrollment answers besides the statuses of every image route. */
const ENROLL_ERRORS = {
  409: 'This finger is already enrolled under another mobile number and the de-duplication policy is reject. Code CONFLICT.',
  422: 'The fingerprint is below the enrollment quality floor (quality_score in the body) or holds no usable print. Codes QUALITY_TOO_LOW, UNPROCESSABLE.',
};
const ENROLLED =
  'SUCCESS: the fingerprint is enrolled, or replaces the earlier enrollment of the number (replaced true).';

/** The engine, or the 501 answer when it is not built. */
export function fingerprintEngine(services: Services): FingerprintEngine {
  return services.fingerprint ?? notImplemented('The fingerprint engine');
}

/** The audit record of a successful enrollment: the de-duplication outcome is its event. */
export function enrolledAudit(request: FastifyRequest, details: EnrollOutcome): RequestAudit {
  return {
    ...request.idv,
    resultStatus: 'SUCCESS',
    event: details.duplicate_of
      ? 'fingerprint.duplicate_flagged'
      : details.replaced
        ? 'fingerprint.reenrolled'
        : 'fingerprint.enrolled',
    ...(typeof details.quality_score === 'number' ? { scores: { quality: details.quality_score } } : {}),
  };
}

/**
 * Enroll with the request's audit row committed in the enrollment's own transaction (both or neither: a full disk
 * leaves no enrollment without its row, nor a row without its enrollment).
 */
export async function enrollAudited(
  request: FastifyRequest,
  engine: FingerprintEngine,
  mobile: string,
  image: DecodedImage,
  audit: (request: FastifyRequest, details: EnrollOutcome) => RequestAudit = enrolledAudit,
): Promise<EnrollOutcome> {
  let fields: ReturnType<typeof auditFields> | undefined;
  const details = await engine.enroll(mobile, image, {
    requestId: request.id,
    audit: (outcome) => (fields = auditFields(request, 200, audit(request, outcome))),
  });
  Object.assign(request.idv, audit(request, details));
  if (fields) auditedWithWrite(request, fields);
  return details;
}

/** Enroll and fill the audit record. */
async function enroll(
  request: FastifyRequest,
  services: Services,
  mobile: string,
  image: DecodedImage,
): Promise<Record<string, unknown>> {
  request.idv.mobile = mobile;
  try {
    const details = await enrollAudited(request, fingerprintEngine(services), mobile, image);
    const message = details.replaced
      ? 'Fingerprint re-enrolled; the previous template was replaced.'
      : 'Fingerprint enrolled.';
    return { status: 'SUCCESS', message, ...details };
  } catch (error) {
    if (isCoreError(error) && error.code === 'CONFLICT') request.idv.event = 'fingerprint.duplicate_rejected';
    if (isCoreError(error) && error.code === 'QUALITY_TOO_LOW') request.idv.reason = 'quality_too_low';
    if (isCoreError(error) && error.code === 'NOT_A_FINGERPRINT') request.idv.reason = 'not_a_fingerprint';
    throw error;
  }
}

/** Verify and shape the answer: SUCCESS body, or SPEC 2.4 rejection with reason (HTTP 200). */
async function verify(
  request: FastifyRequest,
  services: Services,
  mobile: string,
  image: DecodedImage,
): Promise<Record<string, unknown>> {
  request.idv.mobile = mobile;
  const result: StepResult = await fingerprintEngine(services).verify(mobile, image);
  request.idv.resultStatus = result.status;
  request.idv.scores = { fingerprint: result.score };
  const extra = { mobile_number: mobile, ...(result.extra ?? {}) };
  if (result.status === 'SUCCESS')
    return { status: 'SUCCESS', ...extra, score: result.score, message: result.message };
  return rejectedStep(request, 'fingerprint', result, 'no_match', extra);
}

/** Routes of the fingerprint engine: SPEC's /v2/enroll-fp and /v2/verify-fp, and the /docs/fingerprint/api/ sub-service. */
export function registerFingerprintRoutes(app: FastifyInstance, services: Services): void {
  const multipart = { validatorCompiler: documentOnlyValidator };
  const json = { validatorCompiler: documentOnlyValidator };
  const verifyResponse = {
    200: Type.Union([VerifySuccess, Type.Ref('RejectionBody')], {
      description:
        'SUCCESS with the score, or the rejection body (status REJECTED, step fingerprint) with reason no_match, not_enrolled or reenrollment_required.',
    }),
    ...errorResponses(IMAGE_ROUTE_ERRORS),
  };

  app.post(
    '/v2/enroll-fp',
    {
      ...multipart,
      schema: {
        tags: ['fingerprint'],
        summary: 'Enroll (or replace) the fingerprint of a mobile number',
        consumes: ['multipart/form-data'],
        security: apiKeySecurity,
        body: multipartBody(['file'], ['mobile_number'], ['mobile_number', 'file']),
        response: {
          200: described(ENROLLED, EnrollSuccess),
          ...errorResponses(IMAGE_ROUTE_ERRORS, ENROLL_ERRORS),
        },
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const form = await readValidatedMultipart(
        request,
        { textFields: ['mobile_number'], fileFields: [['file']], purposes: { file: ['fingerprint'] } },
        services,
      );
      return enroll(request, services, normaliseMobile(form.text.mobile_number), form.images.file!);
    },
  );

  app.post(
    '/v2/verify-fp',
    {
      ...multipart,
      schema: {
        tags: ['fingerprint'],
        summary: 'Fingerprint-only 1:1 verification against the enrollment of a mobile number',
        description:
          'The image goes in `fingerprint` (`file` is accepted too). Rejections answer 200 with the SPEC 2.4 body and a `reason`: no_match, not_enrolled, reenrollment_required, not_a_fingerprint.',
        consumes: ['multipart/form-data'],
        security: apiKeySecurity,
        body: multipartBody(
          ['fingerprint', 'file'],
          ['mobile_number'],
          ['mobile_number'],
          [['fingerprint'], ['file']],
        ),
        response: verifyResponse,
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const form = await readValidatedMultipart(
        request,
        {
          textFields: ['mobile_number'],
          fileFields: [['fingerprint', 'file']],
          purposes: { fingerprint: ['fingerprint'] },
        },
        services,
      );
      return verify(request, services, normaliseMobile(form.text.mobile_number), form.images.fingerprint!);
    },
  );

  const jsonMobileAndImage = async (request: FastifyRequest): Promise<[string, DecodedImage]> => {
    const raw = readJsonText(request.body, 'mobile_number', 40);
    if (!raw)
      throw new CoreError('FIELD_MISSING', 'The mobile_number field is required.', {
        field: 'mobile_number',
      });
    const mobile = normaliseMobile(raw);
    return [mobile, (await readJsonImage(request, 'image', services, { purposes: ['fingerprint'] }))!];
  };

  app.post(
    '/docs/fingerprint/api/enroll',
    {
      ...json,
      schema: {
        tags: ['fingerprint'],
        summary: 'Enroll a fingerprint (JSON, base64 image)',
        security: apiKeySecurity,
        body: JsonEnrollBody,
        response: {
          200: described(ENROLLED, EnrollSuccess),
          ...errorResponses(IMAGE_ROUTE_ERRORS, ENROLL_ERRORS),
        },
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const [mobile, image] = await jsonMobileAndImage(request);
      return enroll(request, services, mobile, image);
    },
  );

  app.post(
    '/docs/fingerprint/api/verify',
    {
      ...json,
      schema: {
        tags: ['fingerprint'],
        summary: '1:1 verification (JSON, base64 image)',
        security: apiKeySecurity,
        body: JsonEnrollBody,
        response: verifyResponse,
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const [mobile, image] = await jsonMobileAndImage(request);
      return verify(request, services, mobile, image);
    },
  );

  registerFingerprintAdminRoutes(app, services, fingerprintEngine);
}
