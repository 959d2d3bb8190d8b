import type { FaceQualityReport } from '../../../contracts/face-engine.js';
import type { FingerprintEngine } from '../../../contracts/fingerprint-engine.js';
import type { Calibration } from '../../../contracts/step-result.js';
import type { DecodedImage } from '../../../imaging/decode.js';
import { greyPreviewPng } from '../../../imaging/preview-png.js';
import type { Services } from '../../../services/container.js';
import type { EngineAvailability, FaceQualityResponse, FingerprintPreviewResponse } from './api-types.js';

/**
 * The fingerprint engine's quality + minutiae preview (no enrollment), with the print as a PNG to draw the minutiae
 * on (the browser cannot draw a TIFF upload).
 */
export async function fingerprintPreview(
  engine: FingerprintEngine,
  image: DecodedImage,
): Promise<FingerprintPreviewResponse> {
  const [{ likeness, ...features }, png] = await Promise.all([engine.preview(image), greyPreviewPng(image)]);
  const judged = likeness
    ? {
        fingerprint_likeness: likeness.score,
        ...(likeness.isFingerprint ? {} : { not_a_fingerprint: likeness.reason }),
      }
    : {};
  return { ...features, ...judged, image: png };
}

const QUALITY_ADVICE: Record<string, string> = {
  no_face: 'No face found: look straight at the camera.',
  multiple_faces: 'More than one face: only the customer should be in view.',
  face_too_small: 'Face too small: move closer to the camera.',
  too_blurred: 'Picture blurred: hold still.',
  too_dark: 'Too dark: add light in front of the face.',
  overexposed: 'Too bright: avoid direct light on the face.',
  eyes_closed: 'Eyes closed: keep the eyes open.',
};

/** Operator feedback of a quality report: the most blocking problem first, in plain words. */
export function toFaceFeedback(
  report: Omit<FaceQualityReport, 'checks'> & { checks?: FaceQualityReport['checks'] },
): FaceQualityResponse {
  const first = report.reasons[0];
  return {
    faceFound: report.face !== null,
    issues: report.reasons,
    message:
      first === undefined
        ? 'Face found: good to capture.'
        : (QUALITY_ADVICE[first] ?? first.replace(/_/g, ' ')),
    details: { face: report.face, faceCount: report.faceCount, checks: report.checks ?? [] },
  };
}

/** Which engines this server has built. */
export function engineAvailability(services: Services): EngineAvailability {
  return {
    fingerprint: services.fingerprint !== undefined,
    fingerprintPreview: services.fingerprint !== undefined,
    face: services.face !== undefined,
    faceQuality: services.face !== undefined,
    document: services.document !== undefined,
    orchestrator: services.orchestrator !== undefined,
  };
}

/** The "1 in N" operating points of a matcher of the container, when it is built. */
export function calibrationFor(services: Services, engine: 'face' | 'fingerprint'): Calibration | undefined {
  return services[engine]?.calibration();
}
