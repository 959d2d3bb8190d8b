/** ID-card security-feature check: the document engine and the card renderer used by tests. */
import type {
  DocumentProfileRepository,
  ReferenceMarkRepository,
} from '../contracts/document-repositories.js';
import type { FacePort } from './features/ghost-portrait/detector.js';
import type { MrzReader } from './features/mrz-feature.js';
import { BUILT_IN_PROFILES } from './profiles/profile.js';
import { DocumentService } from './service.js';
import type { DocumentWorkers } from './features/worker/document-workers.js';

export { DocumentService } from './service.js';
export { DocumentWorkers, type DocumentWorkerOptions } from './features/worker/document-workers.js';
export type { DocumentServiceDeps } from './service.js';
export type { FacePort } from './features/ghost-portrait/detector.js';
export type { MrzReader, MrzReadingLike } from './features/mrz-feature.js';
export { FEATURE_NAMES, type FeatureName, type FeatureResult, type Region } from './features/types.js';
export { parseAamva, type AamvaRecord, type AamvaFields } from './features/pdf417/aamva.js';
export {
  BUILT_IN_PROFILES,
  DEFAULT_PROFILE_NAME,
  validateProfile,
  type DocumentProfile,
} from './profiles/profile.js';
export type { ReferenceMarkSummary, StoredProfile } from '../contracts/document-engine.js';

/** How to build the document engine. */
export interface CreateDocumentEngineOptions {
  profiles: DocumentProfileRepository;
  marks: ReferenceMarkRepository;
  /** The face engine (ghost portrait); without it that feature reports unavailable. */
  face?: FacePort;
  /** core/document/mrz's `readMrz` (or the document workers' one); without it the mrz feature reports unavailable. */
  readMrz?: MrzReader;
  /** The document worker lane, when shared (the server's OCR service uses it too). */
  workers?: DocumentWorkers;
}

/**
 * Create the document engine, seeding the built-in profiles the store lacks (its workers start on first use or
 * `warmUp()`; call `dispose()` on shutdown).
 */
export async function createDocumentEngine(options: CreateDocumentEngineOptions): Promise<DocumentService> {
  await options.profiles.seed(BUILT_IN_PROFILES);
  const deps: ConstructorParameters<typeof DocumentService>[0] = {
    profiles: options.profiles,
    marks: options.marks,
  };
  if (options.face) deps.face = options.face;
  if (options.readMrz) deps.readMrz = options.readMrz;
  if (options.workers) deps.workers = options.workers;
  return new DocumentService(deps);
}
