import { extractFeatures } from '../fingerprint/extract/index.js';
import { syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import type { FingerprintFeatures } from '../fingerprint/types.js';

/**
 * The same minutiae after turning the finger by `angle` about (150, 200) and shifting it: a counter-clockwise turn
 * as seen on screen, with y pointing down (the ISO convention).
 */
export function movedPrint(
  features: FingerprintFeatures,
  angle: number,
  dx: number,
  dy: number,
): FingerprintFeatures {
  const cx = 150;
  const cy = 200;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return {
    ...features,
    minutiae: features.minutiae.map((m) => ({
      ...m,
      x: cx + cos * (m.x - cx) + sin * (m.y - cy) + dx,
      y: cy - sin * (m.x - cx) + cos * (m.y - cy) + dy,
      angle: (m.angle + angle + 2 * Math.PI) % (2 * Math.PI),
    })),
  };
}

/**
 * Enroll impression 0 of each synthetic finger, probe with impression 1, and count the probes whose own finger
 * ranks first under `similarity` of the descriptors `describe` computes.
 */
export function rankOneHits<T>(
  seeds: number[],
  describe: (features: FingerprintFeatures) => T,
  similarity: (probe: T, enrolled: T) => number,
): number {
  const enrolled = seeds.map((s) => describe(extractFeatures(syntheticFingerprint(s, 0))));
  let correct = 0;
  seeds.forEach((s, i) => {
    const probe = describe(extractFeatures(syntheticFingerprint(s, 1)));
    const sims = enrolled.map((e) => similarity(probe, e));
    if (sims.indexOf(Math.max(...sims)) === i) correct++;
  });
  return correct;
}
