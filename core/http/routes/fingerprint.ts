import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError, isCoreError } from '../../errors.js';
import { FingerprintService } from '../../fingerprint/index.js';
import type { DecodedImage } from '../../imaging/decode.js';
import type { FingerprintEngine, StepResult } from '../../services/contracts.js';
import type { Services } from '../../services/container.js';
import { normaliseMobile } from '../../services/mobile.js';
import { readJsonImage, readJsonText, readValidatedMultipart } from '../intake.js';
import { apiKeySecurity, documentOnlyValidator, errorResponses, multipartBody } from '../schemas.js';
import { EnrollSuccess, JsonEnrollBody, VerifySuccess } from './fingerprint-schemas.js';
import { registerFingerprintAdminRoutes } from './fingerprint-admin.js';
import { notImplemented } from './not-implemented.js';
import { rejectedStep } from '../step-response.js';

const ENGINE = 'The fingerprint engine (issue 3)';

/** The engine, or the 501 answer when it is not built. */
export function fingerprintEngine(services: Services): FingerprintEngine {
  return services.fingerprint ?? notImplemented(ENGINE);
}

/** The full service (1:N search, enrollment admin), or 501 when another engine implementation is plugged in. */
export function fingerprintService(services: Services): FingerprintService {
  const engine = fingerprintEngine(services);
  return engine instanceof FingerprintService
    ? engine
    : notImplemented(`1:N search and enrollment admin of ${ENGINE}`);
}

/** Enroll and fill the audit record; the de-duplication outcome is its event. */
async function enroll(
  request: FastifyRequest,
  services: Services,
  mobile: string,
  image: DecodedImage,
): Promise<Record<string, unknown>> {
  request.idv.mobile = mobile;
  try {
    const details = await fingerprintEngine(services).enroll(mobile, image, { requestId: request.id });
    request.idv.resultStatus = 'SUCCESS';
    request.idv.event = details.duplicate_of
      ? 'fingerprint.duplicate_flagged'
      : details.replaced
        ? 'fingerprint.reenrolled'
        : 'fingerprint.enrolled';
    if (typeof details.quality_score === 'number') request.idv.scores = { quality: details.quality_score };
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
    200: Type.Union([VerifySuccess, Type.Ref('RejectionBody')]),
    ...errorResponses(),
    404: Type.Ref('ErrorBody'),
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
        response: { 200: EnrollSuccess, ...errorResponses(), 409: Type.Ref('ErrorBody') },
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const form = await readValidatedMultipart(
        request,
        { textFields: ['mobile_number'], fileFields: [['file']] },
        services.limits,
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
        body: multipartBody(['fingerprint', 'file'], ['mobile_number'], ['mobile_number']),
        response: verifyResponse,
      },
    },
    async (request) => {
      fingerprintEngine(services);
      const form = await readValidatedMultipart(
        request,
        { textFields: ['mobile_number'], fileFields: [['fingerprint', 'file']] },
        services.limits,
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
    return [mobile, (await readJsonImage(request.body, 'image', services.limits))!];
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
        response: { 200: EnrollSuccess, ...errorResponses(), 409: Type.Ref('ErrorBody') },
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

  registerFingerprintAdminRoutes(app, services, fingerprintService);
}
