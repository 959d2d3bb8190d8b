import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/container.js';
import type { DocumentEngine } from '../../contracts/document-engine.js';
import { readValidatedMultipart } from '../intake.js';
import {
  apiKeySecurity,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  multipartBody,
} from '../schemas.js';
import { V1VerifySuccess } from './document-schemas.js';
import { notImplemented } from './not-implemented.js';
import { rejectedStep } from '../step-response.js';

function documentEngine(services: Services): DocumentEngine {
  return services.document ?? notImplemented('The ID-card security-feature check');
}

/** Routes of the ID-card security-feature check: the legacy POST /v1/verify. */
export function registerDocumentRoutes(app: FastifyInstance, services: Services): void {
  app.post(
    '/v1/verify',
    {
      validatorCompiler: documentOnlyValidator,
      schema: {
        tags: ['documents'],
        summary: 'Legacy ID-card check: is a required security feature present?',
        description:
          'Runs the detectors of the document profile (`profile`, default "default": a valid MRZ or a matching ghost ' +
          'portrait). A card without any required feature answers 200 with the rejection body (step id_card_check, ' +
          'reason feature_not_found, score = best score seen). An unknown profile is 400.',
        consumes: ['multipart/form-data'],
        security: apiKeySecurity,
        body: multipartBody(['id_card'], ['profile'], ['id_card']),
        response: {
          200: Type.Union([V1VerifySuccess, Type.Ref('RejectionBody')], {
            description:
              "SUCCESS with the feature found, or the rejection body (status REJECTED, step id_card_check, reason feature_not_found) with every detector's result.",
          }),
          ...errorResponses(IMAGE_ROUTE_ERRORS, {
            400: 'A field is missing, sent twice or invalid, the profile is unknown, or the body is malformed. Codes FIELD_MISSING, FIELD_INVALID, BODY_INVALID.',
          }),
        },
      },
    },
    async (request) => {
      const engine = documentEngine(services);
      const form = await readValidatedMultipart(
        request,
        {
          optionalTextFields: ['profile'],
          fileFields: [['id_card']],
          // The ghost portrait is found by the face engine.
          purposes: { id_card: ['document', 'face'] },
        },
        services,
      );
      const profile = form.text.profile?.trim();
      const result = await engine.checkIdCard(form.images.id_card!, {
        ...(profile ? { profile } : {}),
        // A client that went away stops the features still to run (worker jobs included).
        ...(request.resources ? { signal: request.resources.clientGone } : {}),
      });
      request.idv.resultStatus = result.status;
      request.idv.scores = { id_card: result.score };
      const { verification_score: _score, feature_detected: _feature, ...extra } = result.extra ?? {};
      if (result.status === 'SUCCESS') {
        return {
          status: 'SUCCESS',
          verification_score: result.score,
          feature_detected: result.extra?.feature_detected,
          region: result.extra?.region ?? null,
          message: result.message,
          ...extra,
        };
      }
      return rejectedStep(request, 'id_card_check', result, 'feature_not_found', extra);
    },
  );
}
