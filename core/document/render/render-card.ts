/**
 * Renders a synthetic, deterministic ID card (JPEG) for tests, end-to-end runs and benchmarks: guilloche
 * background, printed fields, a portrait from the face-api demo photos, an optional ghost portrait, a TD1 MRZ
 * (optionally with a wrong check digit), a printed mark and, for the driver's-licence variant, an AAMVA PDF417.
 */
import sharp from 'sharp';
import bwipjs from 'bwip-js';
import { packageFile } from '../../assets/assets.js';
import { buildTd1, type CardHolder, type MrzCorruption } from './mrz-td1.js';
import { buildAamvaPayload } from './aamva-payload.js';
import { CARD, LAYOUT, cardSvg, fieldsSvg, markOnCardSvg, mrzSvg } from './card-svg.js';
import type { MarkKind } from './marks.js';

/** What to draw on a rendered card. Every field is optional; defaults give a genuine national ID card. */
export interface RenderCardOptions {
  /** `id`: national ID with a TD1 MRZ; `dl`: driver's licence with an AAMVA PDF417 instead of the MRZ. */
  variant?: 'id' | 'dl';
  /** Which bundled portrait (0-2) is the holder. */
  person?: number;
  /** Draw the ghost portrait (default true); `ghostPerson` draws someone else's face there. */
  ghost?: boolean;
  ghostPerson?: number;
  /** Printed mark: the genuine coat of arms, a look-alike, or none (default `arms`). */
  mark?: MarkKind | 'none';
  /** Draw the MRZ (default: true for `id`, false for `dl`). */
  mrz?: boolean;
  /** Make one MRZ check digit wrong. */
  corruptMrz?: MrzCorruption;
  /** Draw the AAMVA PDF417 (default: true for `dl`). */
  barcode?: boolean;
  /** Override holder data. */
  holder?: Partial<CardHolder>;
  /** JPEG quality (default 90). */
  quality?: number;
}

/** The holder printed when no override is given. */
export const DEFAULT_HOLDER: CardHolder = {
  issuingState: 'UTO',
  documentNumber: 'L898902C3',
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  nationality: 'UTO',
  birthDate: '740812',
  sex: 'F',
  expiryDate: '320415',
};

// Head-and-shoulders crops (left, top, size) of single, near-frontal faces in @vladmandic/face-api's demo group
// photos (ID photos are frontal).
const PORTRAITS = [
  { file: 'sample1.jpg', left: 1340, top: 40, width: 400, height: 496 },
  { file: 'sample5.jpg', left: 1300, top: 279, width: 400, height: 496 },
  { file: 'sample6.jpg', left: 550, top: 219, width: 400, height: 496 },
] as const;

function portraitPath(file: string): string {
  return packageFile('@vladmandic/face-api', `demo/${file}`);
}

/** Portrait `person` (any integer; wraps around the bundled photos) cropped and scaled to `width`×`height`. */
export async function portrait(person: number, width: number, height: number): Promise<sharp.Sharp> {
  const source = PORTRAITS[((person % PORTRAITS.length) + PORTRAITS.length) % PORTRAITS.length]!;
  const { file, ...region } = source;
  const buffer = await sharp(portraitPath(file)).extract(region).resize(width, height).png().toBuffer();
  return sharp(buffer);
}

/** A light, small, greyscale copy of a portrait, as printed behind the data (ghost image). */
async function ghostPortrait(person: number): Promise<Buffer> {
  const { width, height } = LAYOUT.ghost;
  const face = await portrait(person, width, height);
  return face.greyscale().linear(0.55, 105).png().toBuffer();
}

async function pdf417(holder: CardHolder): Promise<Buffer> {
  const dob = `19${holder.birthDate.slice(0, 2)}`;
  const payload = buildAamvaPayload('636000', {
    DAQ: holder.documentNumber,
    DCS: holder.surname,
    DAC: holder.givenNames.split(' ')[0] ?? '',
    DAD: holder.givenNames.split(' ').slice(1).join(' '),
    DBD: '08152024',
    DBB: `${holder.birthDate.slice(2, 4)}${holder.birthDate.slice(4, 6)}${dob}`,
    DBA: `${holder.expiryDate.slice(2, 4)}${holder.expiryDate.slice(4, 6)}20${holder.expiryDate.slice(0, 2)}`,
    DBC: holder.sex === 'M' ? '1' : '2',
    DAG: '1234 MAIN STREET',
    DAI: 'RICHMOND',
    DAJ: 'VA',
    DAK: '232190000',
    DCA: 'D',
    DCG: 'USA',
  });
  // columns/rowmult are PDF417 options bwip-js passes through but does not type.
  const options = { bcid: 'pdf417', text: payload, columns: 9, scale: 2, rowmult: 3 };
  const png: Buffer = await bwipjs.toBuffer(options);
  const { width, height } = LAYOUT.barcode;
  const meta = await sharp(png).metadata();
  const image = sharp(png).flatten({ background: '#fff' });
  // Scale down only when it does not fit: resampling a barcode blurs its modules.
  if ((meta.width ?? 0) > width || (meta.height ?? 0) > height)
    image.resize(width, height, { fit: 'inside', kernel: 'nearest' });
  return image.png().toBuffer();
}

/** Render a card as JPEG bytes. Same options, same bytes. */
export async function renderIdCard(options: RenderCardOptions = {}): Promise<Buffer> {
  const variant = options.variant ?? 'id';
  const holder: CardHolder = { ...DEFAULT_HOLDER, ...options.holder };
  const person = options.person ?? 0;
  const mark = options.mark ?? 'arms';
  const drawMrz = options.mrz ?? variant === 'id';
  const drawBarcode = options.barcode ?? variant === 'dl';
  const title = variant === 'id' ? 'REPUBLIC OF UTOPIA' : 'UTOPIA DRIVER LICENSE';
  const subtitle = variant === 'id' ? "IDENTITY CARD · CARTE D'IDENTITÉ" : 'DRIVER LICENSE · CLASS D';
  let body = fieldsSvg(holder, title, subtitle);
  if (mark !== 'none') body += markOnCardSvg(mark);
  if (drawMrz) body += mrzSvg(buildTd1(holder, options.corruptMrz ?? 'none'));
  const base = sharp(Buffer.from(cardSvg({ body })));
  const layers: sharp.OverlayOptions[] = [];
  const p = LAYOUT.portrait;
  layers.push({
    input: await (await portrait(person, p.width, p.height)).png().toBuffer(),
    left: p.x,
    top: p.y,
  });
  if (options.ghost ?? true) {
    // Multiply lets the guilloche show through the light ghost print, as on real cards.
    const g = LAYOUT.ghost;
    layers.push({
      input: await ghostPortrait(options.ghostPerson ?? person),
      left: g.x,
      top: g.y,
      blend: 'multiply',
    });
  }
  if (drawBarcode) {
    const b = LAYOUT.barcode;
    layers.push({ input: await pdf417(holder), left: b.x, top: b.y });
  }
  return base
    .composite(layers)
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer();
}

export { CARD };
