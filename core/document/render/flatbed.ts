/**
 * A document page as a branch's flatbed scanner hands it over: at its printed size on the glass of an A4 scanner at
 * 300 dpi, a little askew, the lid's white all round it, saved as JPEG.
 */
import sharp from 'sharp';
import type { MrzFormat } from '../mrz/layout.js';

/** An A4 scan at 300 dpi, portrait. */
export const A4_SCAN = { width: 2480, height: 3508 } as const;

/** The lid's white, a little grey as scanners see it. */
const LID = '#f4f4f2';

/** JPEG quality a scanner saves at. */
const SCAN_QUALITY = 90;

/** Where the page's corner lies on the glass: near the scanner's corner, where an operator lays it. */
const CORNER = { left: 120, top: 150 } as const;

/**
 * Printed width (mm) of a document by its MRZ's format (ICAO 9303): ID-1 cards, ID-2 cards (the French card issued
 * until 2021 among them) and MRV-B visas, MRV-A visas, passports.
 */
const PRINTED_MM: Record<MrzFormat, number> = {
  TD1: 85.6,
  TD2: 105,
  FRENCH_ID: 105,
  MRVB: 105,
  MRVA: 120,
  TD3: 125,
};

/** A document's printed width in pixels of a 300 dpi scan. */
export function printedWidth(format: MrzFormat): number {
  return Math.round((PRINTED_MM[format] / 25.4) * 300);
}

/** `page` brought to `width` pixels, turned by `degrees` (clockwise), laid on an A4 scan, as JPEG. */
export async function onFlatbed(page: Buffer, width: number, degrees: number): Promise<Buffer> {
  const laid = await sharp(page)
    .removeAlpha()
    .resize({ width })
    .rotate(degrees, { background: LID })
    .png()
    .toBuffer();
  return sharp({ create: { ...A4_SCAN, channels: 3, background: LID } })
    .composite([{ input: laid, ...CORNER }])
    .jpeg({ quality: SCAN_QUALITY })
    .toBuffer();
}
