import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { Services } from '../../../services/container.js';
import { maskMobile, normaliseMobile } from '../../../mobile.js';
import { readValidatedMultipart } from '../../intake.js';
import { enrollAudited } from '../fingerprint.js';
import type { EnrollResponse } from './api-types.js';
import { fingerprintPreview, toFaceFeedback } from './engine-capabilities.js';
import { actAsConsole, requireRole } from './guard.js';
import { registerConsoleVerifyRoute } from './verify-route.js';

function notAvailable(engine: string): CoreError {
  return new CoreError('NOT_IMPLEMENTED', `The ${engine} engine is not available yet on this server.`);
}

/**
 * Operator actions run server-side on the console session (POST /api/console/run/*): the same engines as the
 * public API, so the browser never holds an API key. Each engine that is not built answers 501.
 */
export function registerRunRoutes(app: FastifyInstance, services: Services): void {
  const operators = { preHandler: requireRole('operator', 'admin') };
  registerConsoleVerifyRoute(app, services);

  app.post('/run/fingerprint-preview', operators, async (request) => {
    actAsConsole(request);
    request.idv.audited = false;
    const engine = services.fingerprint;
    if (!engine) throw notAvailable('fingerprint');
    const form = await readValidatedMultipart(
      request,
      { fileFields: [['file']], purposes: { file: ['fingerprint'] } },
      services,
    );
    return fingerprintPreview(engine, form.images.file!);
  });

  app.post('/run/enroll', operators, async (request, reply): Promise<EnrollResponse> => {
    actAsConsole(request);
    const engine = services.fingerprint;
    if (!engine) throw notAvailable('fingerprint');
    const form = await readValidatedMultipart(
      request,
      { textFields: ['mobile_number'], fileFields: [['file']], purposes: { file: ['fingerprint'] } },
      services,
    );
    const mobile = normaliseMobile(form.text.mobile_number);
    request.idv.mobile = mobile;
    const details = await enrollAudited(request, engine, mobile, form.images.file!, (r) => ({
      ...r.idv,
      resultStatus: 'SUCCESS',
      event: 'fingerprint.enrolled',
    }));
    reply.code(200);
    return { status: 'SUCCESS', message: 'Fingerprint enrolled.', mobileMasked: maskMobile(mobile), details };
  });

  app.post('/run/face-quality', operators, async (request) => {
    actAsConsole(request);
    // Live camera feedback runs several times a second: not an audited verification.
    request.idv.audited = false;
    const engine = services.face;
    if (!engine) throw notAvailable('face');
    const form = await readValidatedMultipart(
      request,
      { fileFields: [['image']], purposes: { image: ['face'] } },
      services,
    );
    return toFaceFeedback(await engine.quality(form.images.image!));
  });
}
