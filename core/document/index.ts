/** ID-card security-feature check (issue 5): the document engine and the card renderer used by tests. */
import type { Database } from 'better-sqlite3';
import type { FacePort } from './features/ghost-portrait/detector.js';
import type { MrzReader } from './features/mrz-feature.js';
import { DocumentService } from './service.js';

export { DocumentService } from './service.js';
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
  db: Database;
  /** The face engine (ghost portrait); without it that feature reports unavailable. */
  face?: FacePort;
  /** core/document/mrz's `readMrz`; without it the mrz feature reports unavailable. */
  readMrz?: MrzReader;
}

/** Create the document engine (its feature worker starts on first use; call `dispose()` on shutdown). */
export function createDocumentEngine(options: CreateDocumentEngineOptions): DocumentService {
  const deps: ConstructorParameters<typeof DocumentService>[0] = { db: options.db };
  if (options.face) deps.face = options.face;
  if (options.readMrz) deps.readMrz = options.readMrz;
  return new DocumentService(deps);
}
