import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services/container.js';
import { normaliseMobile } from '../../mobile.js';
import {
  runVerification,
  type VerificationInput,
  type VerificationOutcome,
} from '../../services/verify-pipeline.js';
import { readValidatedMultipart } from '../intake.js';
import {
  apiKeySecurity,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  multipartBody,
} from '../schemas.js';

const StepObject = Type.Object(
  { status: Type.String(), score: Type.Optional(Type.Number()), message: Type.String() },
  { additionalProperties: true },
);

const SuccessBody = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    message: Type.String(),
    details: Type.Object(
      {
        fingerprint: Type.Intersect([StepObject, Type.Object({ mobile_number: Type.String() })]),
        face_match: StepObject,
        id_card: Type.Intersect([
          StepObject,
          Type.Object({ verification_score: Type.Number(), feature_detected: Type.String() }),
        ]),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

/**
 * The multipart form of /v2/verify (`mobile_number`, `fingerprint`, `selfie`, `id_card`), validated and decoded;
 * the number is checked before any image is decoded. The console's verification reads the same form.
 */
export async function readVerificationInput(
  request: FastifyRequest,
  services: Services,
): Promise<VerificationInput> {
  let mobileE164 = '';
  const form = await readValidatedMultipart(
    request,
    {
      textFields: ['mobile_number'],
      fileFields: [['fingerprint'], ['selfie'], ['id_card']],
      purposes: { fingerprint: ['fingerprint'], selfie: ['face'], id_card: ['face', 'document'] },
      checkText: (text) => {
        mobileE164 = normaliseMobile(text.mobile_number);
        request.idv.mobile = mobileE164;
      },
    },
    services,
  );
  return {
    mobileE164,
    fingerprint: form.images.fingerprint!,
    selfie: form.images.selfie!,
    idCard: form.images.id_card!,
    ...(request.resources ? { signal: request.resources.clientGone } : {}),
  };
}

/** What a verification's audit row records: its status, the scores, the failed step and its reason. */
export function recordVerification(request: FastifyRequest, outcome: VerificationOutcome): void {
  request.idv.resultStatus = outcome.status;
  request.idv.scores = outcome.scores;
  if (outcome.failedStep) request.idv.failedStep = outcome.failedStep;
  if (outcome.reason) request.idv.reason = outcome.reason;
}

/** Each step's wall time as a Server-Timing header value (`fingerprint;dur=41, face_match;dur=180`). */
function serverTiming(timings: VerificationOutcome['timings']): string {
  return Object.entries(timings)
    .map(([step, ms]) => `${step};dur=${ms}`)
    .join(', ');
}

/** POST /v2/verify: the unified verification of SPEC 1 and 2.3/2.4. */
export function registerVerifyRoute(app: FastifyInstance, services: Services): void {
  app.post(
    '/v2/verify',
    {
      schema: {
        tags: ['v2'],
        summary: 'Unified verification: fingerprint, then face match, then ID-card security feature',
        consumes: ['multipart/form-data'],
        security: apiKeySecurity,
        body: multipartBody(
          ['fingerprint', 'selfie', 'id_card'],
          ['mobile_number'],
          ['mobile_number', 'fingerprint', 'selfie', 'id_card'],
        ),
        response: {
          200: Type.Union([SuccessBody, Type.Ref('RejectionBody')], {
            description:
              'SUCCESS with the three checks in details, or the rejection body (status REJECTED) of the first step that failed, with its reason.',
          }),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
      validatorCompiler: documentOnlyValidator,
    },
    async (request, reply) => {
      const input = await readVerificationInput(request, services);
      const outcome = await runVerification(services, input);
      recordVerification(request, outcome);
      void reply.header('server-timing', serverTiming(outcome.timings));
      return outcome.body;
    },
  );
}
