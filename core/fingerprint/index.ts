/** Public entry of the fingerprint engine. */
export { FingerprintService, type FingerprintServiceOptions } from './service.js';
export {
  DEFAULT_FINGERPRINT_SETTINGS,
  readFingerprintSettings,
  type DedupMode,
  type FingerprintSettings,
} from './settings.js';
export { ExtractionPool, defaultPoolSize, type ExtractionPoolOptions } from './worker/pool.js';
export type { SearchCandidate } from './search.js';
