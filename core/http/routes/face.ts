import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoreError } from '../../errors.js';
import type { FaceEngine, LivenessEngine } from '../../contracts/face-engine.js';
import type { DecodedImage } from '../../imaging/decode.js';
import type { Services } from '../../services/container.js';
import { readJsonImage, readValidatedMultipart } from '../intake.js';
import {
  apiKeySecurity,
  described,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  multipartBody,
} from '../schemas.js';
import { JsonImageBody, JsonMatchBody, LivenessResult, MatchSuccess, QualityResult } from './face-schemas.js';
import { notImplemented } from './not-implemented.js';
import { rejectedStep } from '../step-response.js';

/** Face images are decoded at the face engine's working size. */
const FACE = { purposes: ['face'] } as const;

function faceEngine(services: Services): FaceEngine {
  return services.face ?? notImplemented('The face engine');
}

function livenessEngine(services: Services): LivenessEngine {
  return services.liveness ?? notImplemented('The liveness engine');
}

function parseThreshold(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n))
    throw new CoreError('FIELD_INVALID', 'threshold must be a number.', { field: 'threshold' });
  return n;
}

/** Compare, fill the audit record and shape the SUCCESS body or the SPEC 2.4 rejection (HTTP 200). */
async function match(
  request: FastifyRequest,
  services: Services,
  selfie: DecodedImage,
  idCard: DecodedImage,
  threshold: number | undefined,
): Promise<Record<string, unknown>> {
  const result = await faceEngine(services).match(
    selfie,
    idCard,
    threshold === undefined ? {} : { threshold },
  );
  request.idv.resultStatus = result.status;
  request.idv.scores = { face_match: result.score };
  if (result.status === 'SUCCESS')
    return { status: 'SUCCESS', score: result.score, message: result.message, ...result.extra };
  return rejectedStep(request, 'face_match', result, 'no_match', result.extra);
}

/** Routes of the face engine: /v2/match-faces and the face-matching and liveness sub-services. */
export function registerFaceRoutes(app: FastifyInstance, services: Services): void {
  const documentOnly = { validatorCompiler: documentOnlyValidator };
  const matchResponse = {
    200: Type.Union([MatchSuccess, Type.Ref('RejectionBody')], {
      description:
        'SUCCESS with the similarity, or the rejection body (status REJECTED, step face_match) with reason no_match, no_face_detected or poor_quality.',
    }),
    ...errorResponses(IMAGE_ROUTE_ERRORS),
  };
  const rejectionNote =
    'Rejections answer 200 with the SPEC 2.4 body (step face_match) and a `reason`: no_match, no_face_detected, poor_quality. ' +
    'The face boxes used are in `faces`; `estimated_fmr` is the calibrated false-match rate of the score.';

  app.post(
    '/v2/match-faces',
    {
      ...documentOnly,
      schema: {
        tags: ['face'],
        summary: 'Compare a selfie with the portrait of an ID card',
        description: rejectionNote,
        consumes: ['multipart/form-data'],
        security: apiKeySecurity,
        body: multipartBody(['selfie', 'id_card'], ['threshold'], ['selfie', 'id_card']),
        response: matchResponse,
      },
    },
    async (request) => {
      faceEngine(services);
      const form = await readValidatedMultipart(
        request,
        {
          optionalTextFields: ['threshold'],
          fileFields: [['selfie'], ['id_card']],
          purposes: { selfie: ['face'], id_card: ['face'] },
        },
        services,
      );
      return match(
        request,
        services,
        form.images.selfie!,
        form.images.id_card!,
        parseThreshold(form.text.threshold),
      );
    },
  );

  app.post(
    '/docs/face-matching/api/match',
    {
      ...documentOnly,
      schema: {
        tags: ['face'],
        summary: 'Compare a selfie with an ID-card portrait (JSON, base64 images)',
        description: rejectionNote,
        security: apiKeySecurity,
        body: JsonMatchBody,
        response: matchResponse,
      },
    },
    async (request) => {
      faceEngine(services);
      const threshold = parseThreshold((request.body as Record<string, unknown> | null)?.threshold);
      const selfie = (await readJsonImage(request, 'selfie', services, FACE))!;
      const idCard = (await readJsonImage(request, 'id_card', services, FACE))!;
      return match(request, services, selfie, idCard, threshold);
    },
  );

  app.post(
    '/docs/face-matching/api/quality',
    {
      ...documentOnly,
      schema: {
        tags: ['face'],
        summary: 'Selfie quality checks for live capture feedback (JSON, base64 image)',
        security: apiKeySecurity,
        body: JsonImageBody,
        response: {
          200: described('The checks of the selfie: passed, and the reasons it did not pass.', QualityResult),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
    },
    async (request) => {
      const engine = faceEngine(services);
      const image = (await readJsonImage(request, 'image', services, FACE))!;
      const report = await engine.quality(image);
      request.idv.resultStatus = report.passed ? 'SUCCESS' : 'REJECTED';
      if (!report.passed) request.idv.reason = report.reasons.join(',');
      return {
        status: report.passed ? 'SUCCESS' : 'REJECTED',
        passed: report.passed,
        reasons: report.reasons,
        checks: report.checks,
        face: report.face,
        face_count: report.faceCount,
      };
    },
  );

  app.post(
    '/docs/liveness/api/check',
    {
      ...documentOnly,
      schema: {
        tags: ['face'],
        summary: 'Passive liveness of one face image (JSON, base64 image)',
        security: apiKeySecurity,
        body: JsonImageBody,
        response: {
          200: described(
            'SUCCESS for a live face, REJECTED otherwise with the score and a reason: presentation_attack, or no_face_detected (score 0).',
            LivenessResult,
          ),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
    },
    async (request) => {
      const engine = livenessEngine(services);
      const image = (await readJsonImage(request, 'image', services, FACE))!;
      const result = await engine.liveness(image);
      request.idv.resultStatus = result.status;
      request.idv.scores = { liveness: result.score };
      if (result.reason) request.idv.reason = result.reason;
      return {
        status: result.status,
        score: result.score,
        message: result.message,
        ...(result.reason ? { reason: result.reason } : {}),
        ...result.extra,
      };
    },
  );
}
