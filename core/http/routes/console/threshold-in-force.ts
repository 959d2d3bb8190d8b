import type { Settings } from '../../../settings/settings.js';
import { THRESHOLD_SETTINGS } from '../../../settings/schema.js';

/**
 * The "1 false match in N" each engine decides with, read the way the engine reads it: the console shows what the
 * server uses, never a picker's first option.
 */
export function thresholdInForce(
  settings: Settings,
  engine: 'face' | 'fingerprint',
): { oneInN: number; isDefault: boolean } {
  const key = THRESHOLD_SETTINGS[engine];
  return { oneInN: settings.get(key), isDefault: !settings.isSet(key) };
}
