/** ID-card security-feature check (issue 5): the document engine and the card renderer used by tests. */
import type { Database } from 'better-sqlite3';
import type { FacePort } from './features/ghost-portrait/detector.js';
import type { MrzReader } from './features/mrz-feature.js';
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
export type { StoredProfile } from './profiles/profile-store.js';
export type { ReferenceMarkSummary } from './profiles/mark-store.js';

/** How to build the document engine. */
export interface CreateDocumentEngineOptions {
  db: Database;
  /** The face engine (ghost portrait); without it that feature reports unavailable. */
  face?: FacePort;
  /** core/document/mrz's `readMrz` (or the document workers' one); without it the mrz feature reports unavailable. */
  readMrz?: MrzReader;
  /** The document worker lane, when shared (the server's OCR service uses it too). */
  workers?: DocumentWorkers;
}

/** Create the document engine (its workers start on first use or `warmUp()`; call `dispose()` on shutdown). */
export function createDocumentEngine(options: CreateDocumentEngineOptions): DocumentService {
  const deps: ConstructorParameters<typeof DocumentService>[0] = { db: options.db };
  if (options.face) deps.face = options.face;
  if (options.readMrz) deps.readMrz = options.readMrz;
  if (options.workers) deps.workers = options.workers;
  return new DocumentService(deps);
}

/** The face engine as the ghost-portrait detector needs it, when `engine` offers detect, embed and similarity. */
export function asFacePort(engine: unknown): FacePort | undefined {
  if (typeof engine !== 'object' || engine === null) return undefined;
  const candidate = engine as Partial<Record<keyof FacePort, unknown>>;
  const ok = ['detect', 'embed', 'similarity'].every(
    (k) => typeof candidate[k as keyof FacePort] === 'function',
  );
  return ok ? (engine as FacePort) : undefined;
}
