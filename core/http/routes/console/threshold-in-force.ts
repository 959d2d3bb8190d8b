import {
  DEFAULT_FMR as FACE_DEFAULT_FMR,
  THRESHOLD_SETTING as FACE_THRESHOLD_SETTING,
} from '../../../face/engine.js';
import { readFingerprintSettings } from '../../../fingerprint/settings.js';
import type { Services } from '../../../services/container.js';

/**
 * The "1 false match in N" each engine decides with, read the way the engine reads it: the console shows what the
 * server uses, never a picker's first option.
 */
export function thresholdInForce(
  settings: Services['settings'],
  engine: 'face' | 'fingerprint',
): { oneInN: number; isDefault: boolean } {
  if (engine === 'fingerprint') {
    const chosen =
      settings.get<unknown>('fingerprint.threshold', null) !== null ||
      settings.get<unknown>('fingerprint.thresholdOneInN', null) !== null;
    return { oneInN: readFingerprintSettings(settings).oneInN, isDefault: !chosen };
  }
  const stored = settings.get<unknown>(FACE_THRESHOLD_SETTING, null);
  // The face engine takes any stored number of at least 1 and otherwise its default rate.
  if (typeof stored === 'number' && stored >= 1) return { oneInN: stored, isDefault: false };
  return { oneInN: Math.round(1 / FACE_DEFAULT_FMR), isDefault: true };
}
