import { BLOCK, sampleGrid } from './block-grid.js';
import type { OrientationField } from './orientation.js';
import type { FloatImage } from './resample.js';

const ALONG_RADIUS = 10;
const ALONG_SIGMA = 5;
const PAD = 16;

/**
 * An even Gabor profile across the ridges for one period, sampled at whole-pixel steps from -radius to radius and
 * made zero-mean so that it ignores brightness.
 */
function gaborWeights(period: number): Float64Array {
  const sigma = 0.45 * period;
  const radius = Math.min(PAD - 2, Math.ceil(2 * sigma));
  const raw = Float64Array.from(
    { length: 2 * radius + 1 },
    (_, i) =>
      Math.cos((2 * Math.PI * (i - radius)) / period) * Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)),
  );
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return raw.map((v) => v - mean);
}

/** Bilinear sample of a padded image at (gx, gy), padded coordinates (positive, so truncation is floor). */
function bilinear(img: Float32Array, stride: number, gx: number, gy: number): number {
  const fx = gx | 0;
  const fy = gy | 0;
  const ax = gx - fx;
  const ay = gy - fy;
  const i = fy * stride + fx;
  return (
    (img[i]! * (1 - ax) + img[i + 1]! * ax) * (1 - ay) +
    (img[i + stride]! * (1 - ax) + img[i + stride + 1]! * ax) * ay
  );
}

/**
 * Contextual enhancement, an oriented Gabor filter applied separably: first a Gaussian smoothing along the ridge
 * through each pixel, following its curve (bridges pores and small breaks), then an even Gabor profile across the
 * ridges tuned to the local period (suppresses everything not at the ridge frequency). Ridges come out negative,
 * valleys positive; values outside the foreground are 0.
 */
export function enhance(
  image: FloatImage,
  field: OrientationField,
  period: Float32Array,
  mask: Uint8Array,
): Float32Array {
  const { width, height } = image;
  const { cols, rows } = field;
  const pw = width + 2 * PAD;
  const ph = height + 2 * PAD;
  const padded = new Float32Array(pw * ph);
  for (let y = 0; y < ph; y++) {
    const sy = Math.min(height - 1, Math.max(0, y - PAD));
    for (let x = 0; x < pw; x++) {
      const sx = Math.min(width - 1, Math.max(0, x - PAD));
      padded[y * pw + x] = image.data[sy * width + sx]!;
    }
  }
  // Foreground grown by two blocks: the across-ridge pass reads smoothed pixels up to 15 px outside.
  const grown = new Uint8Array(cols * rows);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      let on = 0;
      for (let dy = -2; dy <= 2 && !on; dy++) {
        for (let dx = -2; dx <= 2 && !on; dx++) {
          const yy = by + dy;
          const xx = bx + dx;
          if (yy >= 0 && xx >= 0 && yy < rows && xx < cols && mask[yy * cols + xx]) on = 1;
        }
      }
      grown[by * cols + bx] = on;
    }
  }
  // Unit ridge direction per pixel (one of its two senses), from the block field interpolated between block centres.
  const ux = new Float32Array(width * height);
  const uy = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // The half angle of the interpolated doubled-angle vector, in [0, PI), without trigonometry.
      const c = sampleGrid(field.cos2, cols, rows, x, y);
      const s = sampleGrid(field.sin2, cols, rows, x, y);
      const n = Math.sqrt(c * c + s * s);
      const cn = n > 1e-9 ? c / n : 1;
      const half = Math.sqrt(Math.max(0, (1 + cn) / 2));
      ux[y * width + x] = s >= 0 ? half : -half;
      uy[y * width + x] = Math.sqrt(Math.max(0, (1 - cn) / 2));
    }
  }
  const smooth = smoothAlongRidges(padded, pw, ux, uy, grown, cols, width, height);
  // Across the ridge, at the pixel's own direction and sub-pixel positions: rounding the taps to whole pixels (or
  // the direction to 24 bins) bends the Gabor profile on diagonal ridges (five-shift mean EER 5.23% -> 4.81%).
  const profiles = new Map<number, Float64Array>();
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const b = ((y / BLOCK) | 0) * cols + ((x / BLOCK) | 0);
      if (!mask[b]) continue;
      const p = Math.round(period[b]! * 2) / 2;
      let profile = profiles.get(p);
      if (!profile) {
        profile = gaborWeights(p);
        profiles.set(p, profile);
      }
      const r = (profile.length - 1) / 2;
      const nx = -uy[y * width + x]!;
      const ny = ux[y * width + x]!;
      let s = 0;
      for (let k = -r; k <= r; k++)
        s += profile[k + r]! * bilinear(smooth, pw, x + PAD + k * nx, y + PAD + k * ny);
      out[y * width + x] = s;
    }
  }
  return out;
}

/**
 * Gaussian smoothing along the ridge through each foreground pixel, following its curve (as curved Gabor filters
 * do, Gottschlich 2012): a streamline of the orientation field is traced ALONG_RADIUS one-pixel steps both ways and
 * the image is sampled bilinearly on it. A straight kernel cuts across curved ridges near cores and deltas and
 * leaves false breaks there. Averaged over five sub-block shifts of the images (eval --shift), the four FVC sets'
 * EER went from 5.83% to 5.23%; both the curve and the sub-pixel sampling matter (either alone: no gain).
 */
function smoothAlongRidges(
  padded: Float32Array,
  pw: number,
  ux: Float32Array,
  uy: Float32Array,
  grown: Uint8Array,
  cols: number,
  width: number,
  height: number,
): Float32Array {
  const smooth = Float32Array.from(padded);
  const gauss = Float64Array.from({ length: ALONG_RADIUS + 1 }, (_, t) =>
    Math.exp((-t * t) / (2 * ALONG_SIGMA * ALONG_SIGMA)),
  );
  for (let y = 0; y < height; y++) {
    const brow = ((y / BLOCK) | 0) * cols;
    for (let x = 0; x < width; x++) {
      if (!grown[brow + ((x / BLOCK) | 0)]) continue;
      const base = (y + PAD) * pw + x + PAD;
      let acc = padded[base]!;
      let wsum = 1;
      for (let sense = 1; sense >= -1; sense -= 2) {
        let px = x;
        let py = y;
        let dx = sense * ux[y * width + x]!;
        let dy = sense * uy[y * width + x]!;
        for (let t = 1; t <= ALONG_RADIUS; t++) {
          px += dx;
          py += dy;
          if (px < 1 - PAD || py < 1 - PAD || px > width + PAD - 2 || py > height + PAD - 2) break;
          const g = gauss[t]!;
          acc += g * bilinear(padded, pw, px + PAD, py + PAD);
          wsum += g;
          // Next step along the direction at the nearest pixel, in the sense we are already going.
          const qx = Math.min(width - 1, Math.max(0, (px + 0.5) | 0));
          const qy = Math.min(height - 1, Math.max(0, (py + 0.5) | 0));
          let nx = ux[qy * width + qx]!;
          let ny = uy[qy * width + qx]!;
          if (nx * dx + ny * dy < 0) {
            nx = -nx;
            ny = -ny;
          }
          dx = nx;
          dy = ny;
        }
      }
      smooth[base] = acc / wsum;
    }
  }
  return smooth;
}
