import type { FingerprintFeatures, Minutia } from '../types.js';
import { drawFingerShape, fingertipMask, orientationAt } from './orientation.js';
import { createPrng, mixSeed } from './prng.js';
import { DEFAULT_SIZE } from './master.js';

/** Minimum distance between synthetic minutiae, pixels: real ones are about a ridge period apart or more. */
const MIN_SEPARATION = 11;

/**
 * A synthetic feature record for gallery benchmarks: rendering and extracting 100k images would take hours, so
 * minutiae are drawn directly. Positions fill the fingertip area with a minimum separation, directions follow
 * the finger's zero-pole ridge flow (either way along the ridge), counts and qualities spread like an
 * extractor's output. Deterministic per seed.
 */
export function syntheticFeatureRecord(seed: number): FingerprintFeatures {
  const { width, height } = DEFAULT_SIZE;
  const rng = createPrng(mixSeed(seed, 0x3c0d));
  const shape = drawFingerShape(rng, width, height);
  const target = Math.max(15, Math.min(80, Math.round(42 + rng.gauss() * 11)));
  const contact = rng.range(0.75, 0.95);
  const minutiae: Minutia[] = [];
  for (let attempt = 0; attempt < target * 30 && minutiae.length < target; attempt++) {
    const x = rng.range(0, width);
    const y = rng.range(0, height);
    if (fingertipMask(shape, x, y, contact) < 1) continue;
    if (minutiae.some((m) => (m.x - x) ** 2 + (m.y - y) ** 2 < MIN_SEPARATION * MIN_SEPARATION)) continue;
    // Field angles are y-down; minutiae angles are counter-clockwise as seen, hence the mirror.
    const flow = Math.PI - orientationAt(shape, width, height, x, y);
    const angle =
      (flow + (rng.next() < 0.5 ? 0 : Math.PI) + rng.gauss() * 0.08 + 4 * Math.PI) % (2 * Math.PI);
    minutiae.push({
      x,
      y,
      angle,
      type: rng.next() < 0.55 ? 'ending' : 'bifurcation',
      quality: Math.round(rng.range(35, 100)),
    });
  }
  return { width, height, dpi: 500, minutiae, quality: Math.round(rng.range(45, 95)) };
}
