/**
 * A document page lying in a larger photo among other print: what a phone photo of a passport on a desk, next to a
 * bank card, looks like to the MRZ zone search (its zone spans a fraction of the photo, print lies beside its lines).
 */
import sharp from 'sharp';

/**
 * A page (PNG) at the centre of a dark photo `factor` times its size, as a JPEG, with a card's light print beside
 * it: near both ends of an MRZ's lines (at the page's bottom) and under the page.
 */
export async function inScene(page: Buffer, factor: number): Promise<Buffer> {
  const { width, height } = await sharp(page).metadata();
  const [w, h] = [Math.round(width * factor), Math.round(height * factor)];
  const [left, top] = [Math.round((w - width) / 2), Math.round((h - height) / 2)];
  const size = Math.max(8, Math.round(height * 0.09));
  const text = (x: number, y: number, words: string, scale = 1): string =>
    `<text x="${Math.round(x)}" y="${Math.round(y)}" font-size="${Math.round(size * scale)}">${words}</text>`;
  const photo = `<svg width="${w}" height="${h}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#26262a"/>
    <g font-family="DejaVu Sans, sans-serif" fill="#e8e8e8">
    ${text(left - size * 4.2, top + height * 0.86, '5412 7')}${text(left - size * 4.2, top + height * 0.98, 'VALID THRU', 0.5)}
    ${text(left + width + size * 0.3, top + height * 0.86, '4431')}${text(left + width + size * 0.3, top + height * 0.97, '0926')}
    ${text(left, top + height + size * 1.3, 'Lee M. Cardholder')}</g></svg>`;
  return sharp(Buffer.from(photo))
    .composite([{ input: page, left, top }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
