/**
 * Renders a synthetic travel document's data page (TD1, TD2 or TD3) with varied data and layout, as PNG
 * bytes, and tells its MRZ: the ground truth of the robustness benchmark. Same seed, same page.
 */
import sharp from 'sharp';
import { documentSvg, PAGE } from './document-svg.js';
import { buildMrz, type TravelDocument, type TravelFormat } from './mrz-text.js';
import { randomDocument, seededRandom } from './random-document.js';
import { portrait } from './render-card.js';
import type { MrzCorruption } from './mrz-td1.js';

/** What to render; everything but the format is drawn from the seed unless given. */
export interface RenderDocumentOptions {
  format: TravelFormat;
  seed: number;
  /** Override the random document data. */
  document?: Partial<TravelDocument>;
  /** Make one check digit wrong (forged MRZ). */
  corruptMrz?: MrzCorruption;
}

/** A rendered page and what its MRZ says. */
export interface RenderedDocument {
  png: Buffer;
  width: number;
  height: number;
  format: TravelFormat;
  lines: string[];
  document: TravelDocument;
}

/** Render a data page: background print, photo, fields, text near the MRZ, and the MRZ itself. */
export async function renderDocument(options: RenderDocumentOptions): Promise<RenderedDocument> {
  const random = seededRandom(options.seed);
  const document = { ...randomDocument(random, options.format), ...options.document };
  const lines = buildMrz(options.format, document, options.corruptMrz ?? 'none');
  const { svg, photo } = documentSvg(random, options.format, document, lines);
  const face = await (await portrait(Math.floor(random() * 3), photo.width, photo.height)).png().toBuffer();
  const png = await sharp(Buffer.from(svg))
    .composite([{ input: face, left: photo.x, top: photo.y }])
    .flatten({ background: '#ffffff' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const { width, height } = PAGE[options.format];
  return { png, width, height, format: options.format, lines, document };
}
