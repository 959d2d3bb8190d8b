import type { Prng } from './prng.js';

/** Number of quantised ridge directions; 24 keeps the bin error under 4 degrees. */
const DIRECTION_BINS = 24;

interface Kernel {
  offsets: Int32Array;
  weights: Float32Array;
  gain: number;
}

/** Zero-mean oriented Gabor kernels, one per direction bin, as sparse tap lists on a padded row stride. */
function buildKernels(period: number, radius: number, stride: number): Kernel[] {
  const kernels: Kernel[] = [];
  const sigmaAlong = 0.5 * period;
  const sigmaAcross = 0.38 * period;
  for (let b = 0; b < DIRECTION_BINS; b++) {
    const phi = (b * Math.PI) / DIRECTION_BINS;
    const nx = -Math.sin(phi);
    const ny = Math.cos(phi);
    const taps: { o: number; w: number }[] = [];
    let mean = 0;
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        const across = dx * nx + dy * ny;
        const along = dx * ny - dy * nx;
        const envelope = Math.exp(-0.5 * ((along / sigmaAlong) ** 2 + (across / sigmaAcross) ** 2));
        const w = envelope * Math.cos((2 * Math.PI * across) / period);
        taps.push({ o: dy * stride + dx, w });
        mean += w;
      }
    }
    mean /= taps.length;
    const kept = taps.map((t) => ({ o: t.o, w: t.w - mean })).filter((t) => Math.abs(t.w) > 0.04);
    const positive = kept.reduce((sum, t) => sum + Math.max(0, t.w), 0);
    kernels.push({
      offsets: Int32Array.from(kept.map((t) => t.o)),
      weights: Float32Array.from(kept.map((t) => t.w)),
      gain: 2.5 / positive,
    });
  }
  return kernels;
}

/**
 * Grow a ridge pattern by repeated oriented Gabor filtering from sparse random seeds (the SFinGe approach):
 * each pass extends ridges along the local direction at the chosen period, and the clamp keeps them crisp.
 * Minutiae appear where ridges grown from different seeds meet. Returns values in [-1, 1], ridges positive.
 */
export function growRidges(
  rng: Prng,
  orientation: Float32Array,
  region: Uint8Array,
  width: number,
  height: number,
  period: number,
  iterations = 9,
): Float32Array {
  const radius = Math.ceil(period * 0.65);
  const stride = width + 2 * radius;
  const kernels = buildKernels(period, radius, stride);
  const bins = new Uint8Array(width * height);
  for (let i = 0; i < bins.length; i++) {
    bins[i] = Math.round(((orientation[i] ?? 0) / Math.PI) * DIRECTION_BINS) % DIRECTION_BINS;
  }
  let current = new Float32Array(stride * (height + 2 * radius));
  let next = new Float32Array(current.length);
  const seeds = Math.round((width * height) / (period * period * 6));
  for (let s = 0; s < seeds; s++) {
    const x = rng.int(width);
    const y = rng.int(height);
    current[(y + radius) * stride + x + radius] = rng.next() < 0.5 ? -1 : 1;
  }
  for (let it = 0; it < iterations; it++) {
    for (let y = 0; y < height; y++) {
      const rowIn = y * width;
      const rowPad = (y + radius) * stride + radius;
      for (let x = 0; x < width; x++) {
        if (region[rowIn + x] === 0) continue;
        const kernel = kernels[bins[rowIn + x] ?? 0]!;
        const { offsets, weights } = kernel;
        const centre = rowPad + x;
        let sum = 0;
        for (let k = 0; k < offsets.length; k++) sum += (current[centre + offsets[k]!] ?? 0) * weights[k]!;
        // Early passes amplify more so sparse seeds grow into ridges before the pattern settles.
        const v = sum * kernel.gain * (it < 3 ? 4 : 1);
        next[centre] = v > 1 ? 1 : v < -1 ? -1 : v;
      }
    }
    [current, next] = [next, current];
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = current[(y + radius) * stride + x + radius] ?? 0;
  }
  return out;
}
