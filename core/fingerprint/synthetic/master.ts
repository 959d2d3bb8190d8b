import { drawFingerShape, fingertipMask, orientationField, type FingerShape } from './orientation.js';
import { createPrng, mixSeed } from './prng.js';
import { growRidges } from './ridges.js';

/** A synthetic finger: its ridge pattern before any impression effect. */
export interface MasterPrint {
  seed: number;
  width: number;
  height: number;
  shape: FingerShape;
  /** Ridge period in pixels (about 9 at 500 dpi). */
  period: number;
  /** Ridge field in [-1, 1], ridges positive, row-major. */
  ridges: Float32Array;
}

/** Canvas size of masters and impressions: a 500 dpi single-finger sensor. */
export const DEFAULT_SIZE = { width: 300, height: 400 } as const;

/** Generate the master print of finger `seed` (deterministic). */
export function generateMaster(
  seed: number,
  width: number = DEFAULT_SIZE.width,
  height: number = DEFAULT_SIZE.height,
): MasterPrint {
  const rng = createPrng(mixSeed(seed, 0x51f7));
  const shape = drawFingerShape(rng, width, height);
  const period = rng.range(8.4, 10);
  const orientation = orientationField(shape, width, height);
  const region = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Grow ridges a little beyond the contact area so shifted impressions never show the edge of the pattern.
      region[y * width + x] = fingertipMask(shape, x, y, 1.25) > 0 ? 1 : 0;
    }
  }
  const ridges = growRidges(rng, orientation, region, width, height, period);
  return { seed, width, height, shape, period, ridges };
}

const cache = new Map<string, MasterPrint>();

/** `generateMaster` with a small cache: impressions of one finger share its master. */
export function cachedMaster(
  seed: number,
  width: number = DEFAULT_SIZE.width,
  height: number = DEFAULT_SIZE.height,
): MasterPrint {
  const key = `${seed}:${width}x${height}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const master = generateMaster(seed, width, height);
  if (cache.size >= 32) cache.delete(cache.keys().next().value ?? key);
  cache.set(key, master);
  return master;
}
