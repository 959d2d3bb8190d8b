import type { DecodedImage } from '../../../imaging/decode.js';
import type { FaceEngine, FingerprintEngine } from '../../../services/contracts.js';
import type { Services } from '../../../services/container.js';
import type {
  CalibrationPoint,
  EngineAvailability,
  FaceQualityResponse,
  FingerprintPreviewResponse,
} from './api-types.js';

type Preview = (image: DecodedImage) => Promise<FingerprintPreviewResponse>;
type Quality = (image: DecodedImage) => Promise<FaceQualityResponse>;

/** The fingerprint engine's quality + minutiae preview (no enrollment), when the engine offers one. */
export function fingerprintPreviewOf(engine: FingerprintEngine): Preview | undefined {
  const candidate = (engine as unknown as { preview?: Preview }).preview;
  return typeof candidate === 'function' ? candidate.bind(engine) : undefined;
}

/** The face engine's live quality check, when the engine offers one. */
export function faceQualityOf(engine: FaceEngine): Quality | undefined {
  const candidate = (engine as unknown as { quality?: Quality }).quality;
  return typeof candidate === 'function' ? candidate.bind(engine) : undefined;
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

/** An engine's calibration table, when it publishes one. */
export function calibrationOf(engine: unknown): Calibration | undefined {
  const candidate = (engine as { calibration?: () => Calibration } | undefined)?.calibration;
  return typeof candidate === 'function' ? candidate.call(engine) : undefined;
}
