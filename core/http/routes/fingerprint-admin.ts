import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../errors.js';
import type { FingerprintEngine } from '../../contracts/fingerprint-engine.js';
import type { Services } from '../../services/container.js';
import { normaliseMobile } from '../../mobile.js';
import { readJsonImage } from '../intake.js';
import {
  apiKeySecurity,
  described,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
  KEYED_ERRORS,
} from '../schemas.js';
import {
  DeleteSuccess,
  EnrollmentInfoBody,
  JsonSearchBody,
  MobileParams,
  SearchSuccess,
} from './fingerprint-schemas.js';

/** Errors of the enrollment admin routes: the number is checked, then looked up. */
const ENROLLMENT_ERRORS = errorResponses([...KEYED_ERRORS, 400], {
  400: 'The mobile number in the path is not valid (the message says why). Code MOBILE_NUMBER_INVALID.',
  404: 'No fingerprint is enrolled for this mobile number. Code NOT_FOUND.',
});

function readK(body: unknown): number {
  const k = typeof body === 'object' && body !== null ? (body as { k?: unknown }).k : undefined;
  if (k === undefined || k === null) return 5;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > 50) {
    throw new CoreError('FIELD_INVALID', 'k must be an integer from 1 to 50.', { field: 'k' });
  }
  return k;
}

/** 1:N search and enrollment admin of the fingerprint sub-service (JSON bodies, full numbers: authorised callers). */
export function registerFingerprintAdminRoutes(
  app: FastifyInstance,
  services: Services,
  serviceOf: (services: Services) => FingerprintEngine,
): void {
  app.post(
    '/docs/fingerprint/api/search',
    {
      validatorCompiler: documentOnlyValidator,
      schema: {
        tags: ['fingerprint'],
        summary: '1:N identification: the k best enrollments for a fingerprint',
        security: apiKeySecurity,
        body: JsonSearchBody,
        response: {
          200: described(
            'SUCCESS with the k best candidates, best first, and the 1:1 decision threshold.',
            SearchSuccess,
          ),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
    },
    async (request) => {
      const service = serviceOf(services);
      const k = readK(request.body);
      const image = (await readJsonImage(request, 'image', services, { purposes: ['fingerprint'] }))!;
      const result = await service.search(image, k);
      request.idv.resultStatus = 'SUCCESS';
      request.idv.event = 'fingerprint.searched';
      const best = result.candidates[0];
      if (best) request.idv.scores = { best: best.score };
      return {
        status: 'SUCCESS',
        candidates: result.candidates.map((c) => ({
          mobile_number: c.mobile,
          score: c.score,
          estimated_fmr: c.estimatedFmr,
          match: c.score >= result.threshold,
        })),
        threshold: result.threshold,
        gallery_size: result.gallery_size,
      };
    },
  );

  app.get<{ Params: { mobile: string } }>(
    '/docs/fingerprint/api/enrollments/:mobile',
    {
      schema: {
        tags: ['fingerprint'],
        summary: 'Enrollment metadata of a number (never the template)',
        security: apiKeySecurity,
        params: MobileParams,
        response: {
          200: described('The enrollment of the number: model version, quality, dates.', EnrollmentInfoBody),
          ...ENROLLMENT_ERRORS,
        },
      },
    },
    async (request) => {
      const service = serviceOf(services);
      const mobile = normaliseMobile(request.params.mobile);
      request.idv.mobile = mobile;
      const info = await service.enrollment(mobile);
      if (!info) throw new CoreError('NOT_FOUND', 'No fingerprint is enrolled for this mobile number.');
      request.idv.resultStatus = 'SUCCESS';
      return { status: 'SUCCESS', ...info };
    },
  );

  app.delete<{ Params: { mobile: string } }>(
    '/docs/fingerprint/api/enrollments/:mobile',
    {
      schema: {
        tags: ['fingerprint'],
        summary: 'Delete the enrollment of a number (template and vector)',
        security: apiKeySecurity,
        params: MobileParams,
        response: {
          200: described('SUCCESS: the template and its index entries are deleted.', DeleteSuccess),
          ...ENROLLMENT_ERRORS,
        },
      },
    },
    async (request) => {
      const service = serviceOf(services);
      const mobile = normaliseMobile(request.params.mobile);
      request.idv.mobile = mobile;
      if (!(await service.deleteEnrollment(mobile)))
        throw new CoreError('NOT_FOUND', 'No fingerprint is enrolled for this mobile number.');
      request.idv.resultStatus = 'SUCCESS';
      request.idv.event = 'fingerprint.deleted';
      return { status: 'SUCCESS', message: 'Fingerprint enrollment deleted.', deleted: true };
    },
  );
}
