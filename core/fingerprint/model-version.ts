/**
 * Version of the extraction, i.e. of what a template holds; templates of another version must be re-enrolled
 * (SPEC 9). A scoring change that leaves templates valid keeps the version and rewrites the calibration:
 * re-enrolling every customer would gain nothing.
 */
export const FINGERPRINT_MODEL_VERSION = 'fp-2026.11-11';
