/**
 * Test support: synthetic document images with an MRZ, rendered here from SVG text (sharp / librsvg), so
 * tests need no data set. OCR-B is used when installed (Debian fonts-ocr-b), else a monospace font.
 */
import sharp from 'sharp';
import type { DecodedImage } from '../../imaging/decode.js';

/** ICAO 9303 part 4 specimen (TD3). */
export const TD3_SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
/** ICAO 9303 part 5 specimen (TD1). */
export const TD1_SPECIMEN = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Options of a rendered card. */
export interface CardOptions {
  width?: number;
  /** Extra printed lines above the MRZ (the visual zone). */
  printed?: string[];
  /** Turn the finished card by this many degrees (clockwise). */
  rotate?: number;
  /** Font family list of the MRZ (default: OCR B, falling back to a monospace font). */
  font?: string;
  /** Ink printed just before each MRZ line, a third of a character's height away (a picture's edge, say). */
  before?: string;
}

/** Render a card with printed text and MRZ lines at the bottom, as a PNG. */
export async function renderMrzCard(mrz: readonly string[], options: CardOptions = {}): Promise<Buffer> {
  const width = options.width ?? 900;
  const chars = Math.max(30, ...mrz.map((l) => l.length));
  // Monospace advance is about 0.6–0.7 em: the line takes at most ~85% of the card's width.
  const fontSize = Math.round((width * 0.85) / chars / 0.7);
  const lineGap = Math.round(fontSize * 1.45);
  const printed = options.printed ?? [
    'UTOPIA',
    'Surname ERIKSSON',
    'Given names ANNA MARIA',
    'Date of birth 12 AUG 1974',
  ];
  const top = 60 + printed.length * 40 + 30;
  const baseline = (i: number): number => top + (i + 1) * lineGap - Math.round(lineGap * 0.3);
  const height = top + mrz.length * lineGap + 40;
  // Room for the ink before the lines, left of where they usually start.
  const lead = options.before ? fontSize * 3 : 0;
  const left = Math.round(width * 0.05) + lead;
  const before = (i: number): string =>
    options.before
      ? `<text x="${left - Math.round(fontSize / 3)}" y="${baseline(i)}" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${fontSize}">${escape(options.before)}</text>`
      : '';
  const text = [
    ...printed.map(
      (line, i) =>
        `<text x="40" y="${70 + i * 40}" font-family="DejaVu Sans, sans-serif" font-size="26">${escape(line)}</text>`,
    ),
    ...mrz.map(
      (line, i) =>
        `${before(i)}<text x="${left}" y="${baseline(i)}" font-family="${options.font ?? 'OCR B, OCR-B, DejaVu Sans Mono, monospace'}" font-size="${fontSize}">${escape(line)}</text>`,
    ),
  ].join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width + lead}" height="${height}"><rect width="100%" height="100%" fill="#f4f1ea"/>${text}</svg>`;
  let image = sharp(Buffer.from(svg)).flatten({ background: '#f4f1ea' });
  if (options.rotate)
    image = sharp(await image.png().toBuffer()).rotate(options.rotate, { background: '#f4f1ea' });
  return image.png().toBuffer();
}

/** Decode a PNG into the DecodedImage the readers take (RGB). */
export async function toDecoded(png: Buffer): Promise<DecodedImage> {
  const { data, info } = await sharp(png)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { format: 'png', width: info.width, height: info.height, rgb: data };
}

/** Lighting of a photographed page: contrast range, light falling off to the right, a glare spot. */
export interface Lighting {
  /** Grey levels black and white print come out at (a dull print or a dim room squeeze them together). */
  low: number;
  high: number;
  /** Light at the left edge (1 even; 0.4 falling to 40%), full light at the right. */
  dark?: number;
  /** Glare at the spot's centre (0 none, 1 white) and the centre as shares of the width and height. */
  glare?: number;
  glareX?: number;
  glareY?: number;
}

/** A decoded image lit as given: each pixel squeezed into `low`–`high`, dimmed, then washed towards white by glare. */
export function relight(image: DecodedImage, lighting: Lighting): DecodedImage {
  const { width, height } = image;
  const rgb = Buffer.from(image.rgb);
  const dark = lighting.dark ?? 1;
  const gx = (lighting.glareX ?? 0.5) * width;
  const gy = (lighting.glareY ?? 0.5) * height;
  const radius = 0.15 * Math.max(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = dark + ((1 - dark) * x) / width;
      const g = (lighting.glare ?? 0) * Math.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * radius * radius));
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        const v = (lighting.low + (rgb[i]! * (lighting.high - lighting.low)) / 255) * light;
        rgb[i] = Math.round(v + (255 - v) * g);
      }
    }
  }
  return { ...image, rgb };
}
