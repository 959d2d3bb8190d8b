import type { DecodedImage } from '../../imaging/decode.js';
import { gaussianBlur } from '../features/orb/gray-image.js';
import type { Raster } from './morphology.js';
import { resizeRaster } from './sample.js';

/** Grey (luma, Rec. 601 weights in integers) of an RGB image, full resolution: what the recogniser reads. */
export function toGrey(image: DecodedImage): Raster {
  const { width, height, rgb } = image;
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3) {
    data[i] = ((rgb[j] ?? 0) * 77 + (rgb[j + 1] ?? 0) * 150 + (rgb[j + 2] ?? 0) * 29) >> 8;
  }
  return { width, height, data };
}

/**
 * Each pixel's lightest channel, full resolution: dark only where every channel is, as under the black ink an MRZ
 * is printed in. Colour marks (a red frame drawn round the zone, a coloured stamp or guilloche) stay light, where
 * luma makes saturated red or blue as dark as print. Zones are found and lines fitted on it.
 */
export function toInkGrey(image: DecodedImage): Raster {
  const { width, height, rgb } = image;
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3) {
    const r = rgb[j] ?? 0;
    const g = rgb[j + 1] ?? 0;
    const b = rgb[j + 2] ?? 0;
    data[i] = r > g ? (r > b ? r : b) : g > b ? g : b;
  }
  return { width, height, data };
}

/** Blur (pixels) that softens a bilevel image's edges as a lens does a photograph's. */
const LENS_SIGMA = 1;

/**
 * A bilevel raster (two grey values: a black-and-white scan, a photocopy, a fax) softened by a lens-like blur;
 * any other raster as is. Zones are found, and lines read, on the grey edges a camera leaves: on hard-edged
 * print of a few pixels, small characters lose their shapes to the sampling grid.
 */
export function softenBilevel(raster: Raster): Raster {
  const { data } = raster;
  const first = data[0] ?? 0;
  let second = first;
  for (let i = 1; i < data.length; i++) {
    const v = data[i]!;
    if (v === first || v === second) continue;
    if (second !== first) return raster;
    second = v;
  }
  return second === first ? raster : gaussianBlur(raster, LENS_SIGMA);
}

/** Half the size, each pixel the mean of a 2×2 block (an odd last row or column is dropped). */
export function halve(src: Raster): Raster {
  const width = Math.max(1, src.width >> 1);
  const height = Math.max(1, src.height >> 1);
  if (src.width < 2 || src.height < 2) return src;
  const data = new Uint8Array(width * height);
  const s = src.data;
  for (let y = 0; y < height; y++) {
    const r0 = 2 * y * src.width;
    const r1 = r0 + src.width;
    for (let x = 0; x < width; x++) {
      const i = 2 * x;
      data[y * width + x] =
        ((s[r0 + i] ?? 0) + (s[r0 + i + 1] ?? 0) + (s[r1 + i] ?? 0) + (s[r1 + i + 1] ?? 0) + 2) >> 2;
    }
  }
  return { width, height, data };
}

/**
 * A grey image and its halvings, made on demand: line strips are cut from the level whose text is nearest the
 * recogniser's size, so a 4000-pixel scan costs no more to read than a 1000-pixel one.
 */
export class GreyPyramid {
  private readonly levels: Raster[];
  private readonly copies = new Map<number, { raster: Raster; scale: number }>();

  constructor(base: Raster) {
    this.levels = [base];
  }

  /** Full-resolution size. */
  get width(): number {
    return this.levels[0]!.width;
  }

  get height(): number {
    return this.levels[0]!.height;
  }

  /** Level `k` (1/2^k of the full size), made from the one above when first asked for. */
  level(k: number): Raster {
    while (this.levels.length <= k) {
      const last = this.levels[this.levels.length - 1]!;
      const next = halve(last);
      if (next === last) break;
      this.levels.push(next);
    }
    return this.levels[Math.min(k, this.levels.length - 1)]!;
  }

  /** Scale of level `k` relative to full resolution (its actual size over the full size). */
  scaleOf(k: number): number {
    return this.level(k).width / this.width;
  }

  /**
   * A copy whose longer side is `longSide` pixels: from the smallest level still at least that big, then
   * bilinear (never more than a halving, so no aliasing), or bilinear enlargement of a small image. Made once.
   */
  resized(longSide: number): { raster: Raster; scale: number } {
    let copy = this.copies.get(longSide);
    if (!copy) this.copies.set(longSide, (copy = this.makeResized(longSide)));
    return copy;
  }

  private makeResized(longSide: number): { raster: Raster; scale: number } {
    const long = Math.max(this.width, this.height);
    const scale = longSide / long;
    let k = 0;
    while (long / 2 ** (k + 1) >= longSide && this.level(k + 1) !== this.level(k)) k++;
    const src = this.level(k);
    const width = Math.max(1, Math.round(this.width * scale));
    const height = Math.max(1, Math.round(this.height * scale));
    if (width === src.width && height === src.height) return { raster: src, scale };
    return { raster: resizeRaster(src, width, height), scale };
  }
}
