/**
 * A document page printed heavier or lighter than its type: ink that spread (an inkjet on absorbent paper, a worn
 * ribbon, a soft photo) thickens every stroke; a light laser or an overexposed photo thins it to hairlines.
 */
import sharp from 'sharp';
import { dilate, erode, type Raster } from '../mrz/morphology.js';

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
  const side = 2 * Math.round(Math.abs(px) * SUPERSAMPLE) + 1;
  const moved = Buffer.alloc(fine.length);
  for (let c = 0; c < 3; c++) {
    const channel: Raster = { width: w, height: h, data: new Uint8Array(w * h) };
    for (let i = 0; i < w * h; i++) channel.data[i] = fine[i * 3 + c]!;
    const { data } = px > 0 ? erode(channel, side, side) : dilate(channel, side, side);
    for (let i = 0; i < w * h; i++) moved[i * 3 + c] = data[i]!;
  }
  return sharp(moved, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: PHOTO_QUALITY })
    .toBuffer();
}
