import type { DecodedImage } from '../../../imaging/decode.js';
import type { FaceEngine, FingerprintEngine } from '../../../services/contracts.js';
import type { Services } from '../../../services/container.js';
import type { EngineAvailability, FaceQualityResponse, FingerprintPreviewResponse } from './api-types.js';

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
  const extra = services as unknown as Record<string, unknown>;
  return {
    fingerprint: services.fingerprint !== undefined,
    fingerprintPreview:
      services.fingerprint !== undefined && fingerprintPreviewOf(services.fingerprint) !== undefined,
    face: services.face !== undefined,
    faceQuality: services.face !== undefined && faceQualityOf(services.face) !== undefined,
    document: services.document !== undefined,
    orchestrator: extra.orchestrator !== undefined,
  };
}
