import { roundHalfUp as round } from '../../math/round.js';
import { BLOCK, boxSum } from './block-grid.js';
import { blockAngle, type OrientationField } from './orientation.js';
import type { FloatImage } from './resample.js';

/** Plausible ridge periods at 500 dpi, in pixels. */
const MIN_PERIOD = 5;
const MAX_PERIOD = 15;
const HALF_WINDOW = 16;

/** Per block, how strongly the grey levels repeat at a ridge period across the block's direction. */
export interface Periodicity {
  /** The autocorrelation at the period (0 where no lag in 5-15 px correlates above 0.2). */
  strength: Float32Array;
  /** Mean square of the across-ridge profile (grey levels squared): what a repetition along the ridge is set against. */
  energy: Float32Array;
}

/**
 * Ridge period per block (pixels): the strongest autocorrelation lag of the grey-level profile taken across the
 * ridges (the "x-signature"), averaged over the 5x5 neighbourhood of valid blocks, with the image median where no
 * neighbour is valid. `periodicity`, when given, receives each foreground block's autocorrelation at that lag and
 * the mean square of its profile (see Periodicity).
 */
export function estimatePeriod(
  image: FloatImage,
  field: OrientationField,
  mask: Uint8Array,
  periodicity?: Periodicity,
): Float32Array {
  const strength = periodicity?.strength;
  const { width, height, data } = image;
  const { cols, rows } = field;
  const period = new Float32Array(cols * rows);
  const valid = new Float32Array(cols * rows);
  const signature = new Float32Array(2 * HALF_WINDOW);
  // Every lag read below is written first for each block.
  const corr = new Float32Array(MAX_PERIOD + 2);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const b = by * cols + bx;
      // Without a clear direction a block gives no period, but its strength still counts (dotted ridges).
      const oriented = field.coherence[b]! >= 0.2;
      if (!mask[b] || (!oriented && !strength)) continue;
      const t = blockAngle(field, b);
      const rx = Math.cos(t);
      const ry = Math.sin(t);
      const cx = bx * BLOCK + BLOCK / 2;
      const cy = by * BLOCK + BLOCK / 2;
      let mean = 0;
      for (let k = -HALF_WINDOW; k < HALF_WINDOW; k++) {
        let s = 0;
        let n = 0;
        for (let j = -6; j <= 6; j += 2) {
          const x = round(cx - k * ry + j * rx);
          const y = round(cy + k * rx + j * ry);
          if (x < 0 || y < 0 || x >= width || y >= height) continue;
          s += data[y * width + x]!;
          n++;
        }
        const v = n > 0 ? s / n : 0;
        signature[k + HALF_WINDOW] = v;
        mean += v;
      }
      mean /= signature.length;
      let energy = 0;
      for (let k = 0; k < signature.length; k++) {
        signature[k]! -= mean;
        energy += signature[k]! * signature[k]!;
      }
      if (periodicity) periodicity.energy[b] = energy / signature.length;
      if (energy < 1e-3) continue;
      let bestLag = 0;
      let best = 0.2;
      for (let lag = MIN_PERIOD - 1; lag <= MAX_PERIOD + 1; lag++) {
        let c = 0;
        for (let k = 0; k + lag < signature.length; k++) c += signature[k]! * signature[k + lag]!;
        corr[lag] = (c / energy) * (signature.length / (signature.length - lag));
      }
      for (let lag = MIN_PERIOD; lag <= MAX_PERIOD; lag++) {
        const c = corr[lag]!;
        if (c > best && c >= corr[lag - 1]! && c >= corr[lag + 1]!) {
          best = c;
          bestLag = lag;
        }
      }
      if (bestLag === 0) continue;
      if (strength) strength[b] = best;
      if (!oriented) continue;
      // Parabolic refinement of the peak for a sub-pixel period.
      const l = corr[bestLag - 1]!;
      const r = corr[bestLag + 1]!;
      const denom = l - 2 * best + r;
      const shift = denom < 0 ? (0.5 * (l - r)) / denom : 0;
      period[b] = bestLag + Math.max(-0.5, Math.min(0.5, shift));
      valid[b] = 1;
    }
  }
  const periods: number[] = [];
  for (let b = 0; b < period.length; b++) if (valid[b]) periods.push(period[b]!);
  periods.sort((a, c) => a - c);
  const median = periods.length > 0 ? periods[periods.length >> 1]! : 9;
  const sum = boxSum(period, cols, rows, 2);
  const count = boxSum(valid, cols, rows, 2);
  const out = new Float32Array(cols * rows);
  for (let b = 0; b < out.length; b++) {
    // Lean on the image median where few neighbours are valid; a local estimate from one block is noisy.
    const local = count[b]! > 0 ? sum[b]! / count[b]! : median;
    const w = Math.min(1, count[b]! / 6);
    out[b] = Math.min(MAX_PERIOD, Math.max(MIN_PERIOD, w * local + (1 - w) * median));
  }
  return out;
}
