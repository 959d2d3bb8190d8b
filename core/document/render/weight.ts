/**
 * A document page printed heavier or lighter than its type: ink that spread (an inkjet on absorbent paper, a worn
 * ribbon, a soft photo) thickens every stroke; a light laser or an overexposed photo thins it to hairlines.
 */
import sharp from 'sharp';

/** How many times finer than the page its strokes are moved: a move of a fraction of a pixel still shows. */
const SUPERSAMPLE = 4;

/** JPEG quality the page is saved at, as a phone saves a photo. */
const PHOTO_QUALITY = 90;

/**
 * `page` with the edges of its dark strokes moved `px` pixels outward (heavier print, `px` > 0) or inward (lighter,
 * `px` < 0): each channel's darkest (or lightest) value over a square of half-side |px|, taken at four times the page's
 * size and shrunk back, saved as JPEG at quality 90.
 */
export async function reweighted(page: Buffer, px: number): Promise<Buffer> {
  const { width, height } = await sharp(page).metadata();
  if (!width || !height) throw new Error('reweighted: the page has no size');
  const [w, h] = [width * SUPERSAMPLE, height * SUPERSAMPLE];
  const fine = await sharp(page).removeAlpha().resize(w, h, { kernel: 'cubic' }).raw().toBuffer();
  const radius = Math.round(Math.abs(px) * SUPERSAMPLE);
  const moved = extremum(extremum(fine, w, h, radius, px > 0, 'rows'), w, h, radius, px > 0, 'columns');
  return sharp(moved, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: PHOTO_QUALITY })
    .toBuffer();
}

/**
 * The least (`darkest`) or greatest value of each channel within `radius` pixels along rows or columns of an RGB
 * raster: van Herk and Gil-Werman's running extremum, three comparisons a pixel whatever the radius.
 */
export function extremum(
  rgb: Buffer,
  width: number,
  height: number,
  radius: number,
  darkest: boolean,
  along: 'rows' | 'columns',
): Buffer {
  const out = Buffer.alloc(rgb.length);
  if (radius <= 0) {
    rgb.copy(out);
    return out;
  }
  const pick = darkest ? Math.min : Math.max;
  const [lines, length] = along === 'rows' ? [height, width] : [width, height];
  const span = 2 * radius + 1;
  const ahead = new Uint8Array(length);
  const behind = new Uint8Array(length);
  for (let line = 0; line < lines; line++) {
    for (let channel = 0; channel < 3; channel++) {
      const at = (i: number): number =>
        (along === 'rows' ? line * width + i : i * width + line) * 3 + channel;
      // Running extremum from each block's start (ahead) and from its end (behind); a window spans at most two blocks.
      for (let i = 0; i < length; i++) {
        const v = rgb[at(i)]!;
        ahead[i] = i % span === 0 ? v : pick(ahead[i - 1]!, v);
      }
      for (let i = length - 1; i >= 0; i--) {
        const v = rgb[at(i)]!;
        behind[i] = i === length - 1 || (i + 1) % span === 0 ? v : pick(behind[i + 1]!, v);
      }
      for (let i = 0; i < length; i++) {
        const lo = Math.max(0, i - radius);
        const hi = Math.min(length - 1, i + radius);
        // Within one block only where the page's edge clips the window.
        const oneBlock = Math.floor(lo / span) === Math.floor(hi / span);
        out[at(i)] = oneBlock ? (lo % span === 0 ? ahead[hi]! : behind[lo]!) : pick(behind[lo]!, ahead[hi]!);
      }
    }
  }
  return out;
}
