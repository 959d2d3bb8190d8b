import { readFmrCalibration } from '../../../face/calibration-store.js';
import { thresholdForFmr } from '../../../face/math/calibration.js';
import type { DecodedImage } from '../../../imaging/decode.js';
import { greyPreviewPng } from '../../../imaging/preview-png.js';
import type { FaceEngine, FingerprintEngine } from '../../../services/contracts.js';
import type { Services } from '../../../services/container.js';
import type {
  CalibrationPoint,
  EngineAvailability,
  FaceQualityResponse,
  FingerprintPreviewResponse,
} from './api-types.js';

type EnginePreview = (image: DecodedImage) => Promise<Omit<FingerprintPreviewResponse, 'image'>>;
type Preview = (image: DecodedImage) => Promise<FingerprintPreviewResponse>;
type Quality = (image: DecodedImage) => Promise<FaceQualityResponse>;

/**
 * The fingerprint engine's quality + minutiae preview (no enrollment), when the engine offers one, with the print
 * as a PNG to draw the minutiae on (the browser cannot draw a TIFF upload).
 */
export function fingerprintPreviewOf(engine: FingerprintEngine): Preview | undefined {
  const candidate = (engine as unknown as { preview?: EnginePreview }).preview;
  if (typeof candidate !== 'function') return undefined;
  return async (image) => {
    const [features, png] = await Promise.all([candidate.call(engine, image), greyPreviewPng(image)]);
    return { ...features, image: png };
  };
}

/** What the face engine's quality check reports (core/face/pipeline/assess.ts). */
interface FaceQualityReport {
  passed: boolean;
  reasons: string[];
  face: { x: number; y: number; width: number; height: number } | null;
  faceCount: number;
  checks?: unknown[];
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
export function toFaceFeedback(report: FaceQualityReport): FaceQualityResponse {
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

/** The face engine's live quality check as operator feedback, when the engine offers one. */
export function faceQualityOf(engine: FaceEngine): Quality | undefined {
  const candidate = (engine as unknown as { quality?: (image: DecodedImage) => Promise<FaceQualityReport> })
    .quality;
  if (typeof candidate !== 'function') return undefined;
  return async (image) => toFaceFeedback(await candidate.call(engine, image));
}

/** Which engines this server has built. */
export function engineAvailability(services: Services): EngineAvailability {
  return {
    fingerprint: services.fingerprint !== undefined,
    fingerprintPreview:
      services.fingerprint !== undefined && fingerprintPreviewOf(services.fingerprint) !== undefined,
    face: services.face !== undefined,
    faceQuality: services.face !== undefined && faceQualityOf(services.face) !== undefined,
    document: services.document !== undefined,
    orchestrator: orchestratorOf(services) !== undefined,
  };
}

/** The orchestrator's configuration methods, when the orchestrator is built. */
export interface OrchestratorConfigAccess {
  getConfig(): Record<string, unknown>;
  setConfig(patch: unknown): Record<string, unknown>;
}

/** The orchestrator of the container (issue 6), when present. */
export function orchestratorOf(services: Services): OrchestratorConfigAccess | undefined {
  const candidate = (services as unknown as { orchestrator?: Partial<OrchestratorConfigAccess> })
    .orchestrator;
  if (candidate && typeof candidate.getConfig === 'function' && typeof candidate.setConfig === 'function') {
    return candidate as OrchestratorConfigAccess;
  }
  return undefined;
}

/** A matcher's published operating points ("1 false match in N" → score threshold) and where they come from. */
export interface Calibration {
  source: string;
  points: CalibrationPoint[];
}

/** The "1 false match in N" choices offered by the console. */
export const ONE_IN_N_CHOICES = [100, 1_000, 10_000, 100_000, 1_000_000];

/** An engine's calibration table, when it publishes one. */
export function calibrationOf(engine: unknown): Calibration | undefined {
  const candidate = (engine as { calibration?: () => Calibration } | undefined)?.calibration;
  return typeof candidate === 'function' ? candidate.call(engine) : undefined;
}

/** The face engine's committed similarity → FMR calibration, as operating points. */
function faceCalibration(): Calibration {
  const calibration = readFmrCalibration();
  // The source reads "<set>: <count> cross-identity pairs of <n> images"; the count is said once, formatted.
  const dataset = (calibration.source.split(':')[0] ?? '').replace(/\/[^\s]*\//g, '').trim();
  return {
    source: `Impostor scores of ${calibration.impostorCount.toLocaleString('en')} ${dataset} pairs, model ${calibration.model}`,
    points: ONE_IN_N_CHOICES.map((oneInN) => ({
      oneInN,
      threshold: thresholdForFmr(calibration, 1 / oneInN),
    })),
  };
}

/** Calibration of a matcher of the container: its own table, or (face) the committed calibration file. */
export function calibrationFor(services: Services, engine: 'face' | 'fingerprint'): Calibration | undefined {
  const built = services[engine];
  if (!built) return undefined;
  return calibrationOf(built) ?? (engine === 'face' ? faceCalibration() : undefined);
}
