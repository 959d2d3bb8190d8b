import type { Raster } from './morphology.js';

/** A rotated rectangle in image pixels: centre, size along and across the line, angle in radians. */
export interface RotatedRect {
  cx: number;
  cy: number;
  width: number;
  height: number;
  angle: number;
}

/**
 * Cut a rotated rectangle out of a grey raster into an upright one (bilinear), so a skewed MRZ line comes out
 * level. Pixels outside the image are white, like the paper around a line.
 */
export function sampleRotatedRect(src: Raster, rect: RotatedRect): Raster {
  const width = Math.max(1, Math.round(rect.width));
  const height = Math.max(1, Math.round(rect.height));
  const out = new Uint8Array(width * height);
  const cos = Math.cos(rect.angle);
  const sin = Math.sin(rect.angle);
  for (let y = 0; y < height; y++) {
    const dy = y - (height - 1) / 2;
    for (let x = 0; x < width; x++) {
      const dx = x - (width - 1) / 2;
      const sx = rect.cx + dx * cos - dy * sin;
      const sy = rect.cy + dx * sin + dy * cos;
      out[y * width + x] = bilinear(src, sx, sy);
    }
  }
  return { width, height, data: out };
}

/**
 * Bilinear grey value at (x, y). Past the last full pixel cell the nearest pixel is used; off the raster the value
 * is white (`edges: 'white'`, a margin of paper) or the nearest edge pixel (`'clamp'`).
 */
export function sampleBilinear(src: Raster, x: number, y: number, edges: 'white' | 'clamp'): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= src.width || y0 + 1 >= src.height) {
    let cx = Math.round(x);
    let cy = Math.round(y);
    if (edges === 'clamp') {
      cx = Math.min(src.width - 1, Math.max(0, cx));
      cy = Math.min(src.height - 1, Math.max(0, cy));
    } else if (cx < 0 || cy < 0 || cx >= src.width || cy >= src.height) {
      return 255;
    }
    return src.data[cy * src.width + cx] ?? 255;
  }
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * src.width + x0;
  const a = src.data[i] ?? 0;
  const b = src.data[i + 1] ?? 0;
  const c = src.data[i + src.width] ?? 0;
  const d = src.data[i + src.width + 1] ?? 0;
  return a * (1 - fx) * (1 - fy) + b * fx * (1 - fy) + c * (1 - fx) * fy + d * fx * fy;
}

const bilinear = (src: Raster, x: number, y: number): number =>
  Math.round(sampleBilinear(src, x, y, 'white'));

/** Scale a grey raster with bilinear sampling (working copies for the zone search). */
export function resizeRaster(src: Raster, width: number, height: number): Raster {
  const out = new Uint8Array(width * height);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      out[y * width + x] = bilinear(src, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5);
  }
  return { width, height, data: out };
}

/**
 * Stretch a grey raster's contrast so its darkest 2% are black and its lightest 2% white: faint or greyish
 * scans then reach the recogniser like crisp print.
 */
export function stretchContrast(src: Raster): Raster {
  const hist = new Uint32Array(256);
  for (const v of src.data) hist[v] = (hist[v] ?? 0) + 1;
  const cut = Math.floor(src.data.length * 0.02);
  let low = 0;
  for (let acc = 0; low < 255 && acc + (hist[low] ?? 0) <= cut; low++) acc += hist[low] ?? 0;
  let high = 255;
  for (let acc = 0; high > 0 && acc + (hist[high] ?? 0) <= cut; high--) acc += hist[high] ?? 0;
  if (high - low < 16) return src;
  const scale = 255 / (high - low);
  const data = new Uint8Array(src.data.length);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(0, Math.min(255, Math.round(((src.data[i] ?? 0) - low) * scale)));
  return { width: src.width, height: src.height, data };
}
