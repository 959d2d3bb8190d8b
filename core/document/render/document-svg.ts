/**
 * SVG of a rendered travel document's data page (TD1 card, TD2 card, TD3 passport page) at about 300 dpi:
 * security-print background, header, photo box, labelled fields, a signature and printed text near the MRZ,
 * and the MRZ in OCR-B near the ICAO pitch. Layout details vary with the random source. Pure string building.
 */
import { between, pick, type Random } from './random-document.js';
import type { TravelDocument, TravelFormat } from './mrz-text.js';

/** OCR-B's advance, in em: every character's cell is this wide. */
const OCRB_ADVANCE = 0.742;

/** Page size in pixels at about 300 dpi (ID-1, ID-2, ID-3 / passport data page). */
export const PAGE: Record<TravelFormat, { width: number; height: number }> = {
  TD1: { width: 1011, height: 638 },
  TD2: { width: 1240, height: 874 },
  TD3: { width: 1476, height: 1039 },
};

/** Where the photo goes (filled in by the raster step). */
export interface PhotoBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page's SVG and where its photo and MRZ are. */
export interface DocumentSvg {
  svg: string;
  photo: PhotoBox;
  mrzTop: number;
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function visualDate(yymmdd: string, pivot: number): string {
  const yy = Number(yymmdd.slice(0, 2));
  const year = yy > pivot ? 1900 + yy : 2000 + yy;
  return `${yymmdd.slice(4, 6)} ${MONTHS[Number(yymmdd.slice(2, 4)) - 1] ?? 'JAN'} ${year}`;
}

function guilloche(random: Random, width: number, height: number, strength: number): string {
  const paths: string[] = [];
  const colours = ['#9fc4b5', '#c7aed0', '#d8c58f', '#a9bfdc', '#e0b3a8'];
  const families = 10 + Math.floor(random() * 14);
  for (let k = 0; k < families; k++) {
    const amplitude = between(random, 8, 40);
    const period = between(random, 90, 260);
    const offsetY = between(random, 0, height);
    const phase = between(random, 0, 6.3);
    let d = '';
    for (let x = 0; x <= width; x += 10) {
      const y = offsetY + amplitude * Math.sin((x / period) * 2 * Math.PI + phase);
      d += `${x === 0 ? 'M' : 'L'}${x} ${y.toFixed(1)} `;
    }
    paths.push(
      `<path d="${d}" fill="none" stroke="${pick(random, colours)}" stroke-opacity="${strength.toFixed(2)}" stroke-width="${between(random, 0.8, 2).toFixed(1)}"/>`,
    );
  }
  const cx = between(random, 0.3, 0.8) * width;
  const cy = between(random, 0.2, 0.6) * height;
  for (let r = 30; r <= height * 0.45; r += between(random, 10, 22)) {
    paths.push(
      `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${r.toFixed(0)}" fill="none" stroke="#d9cfae" stroke-opacity="${strength.toFixed(2)}"/>`,
    );
  }
  return paths.join('');
}

function signature(random: Random, x: number, y: number, width: number): string {
  let d = `M${x} ${y}`;
  for (let i = 1; i <= 14; i++) {
    d += ` Q${(x + (i - 0.5) * (width / 14)).toFixed(0)} ${(y + between(random, -28, 28)).toFixed(0)} ${(x + i * (width / 14)).toFixed(0)} ${(y + between(random, -10, 10)).toFixed(0)}`;
  }
  return `<path d="${d}" fill="none" stroke="#1b2a6b" stroke-width="${between(random, 2, 4).toFixed(1)}"/>`;
}

/** The data page of `doc` with its MRZ `lines` (see buildMrz), laid out for `format`. */
export function documentSvg(
  random: Random,
  format: TravelFormat,
  doc: TravelDocument,
  lines: readonly string[],
): DocumentSvg {
  const { width, height } = PAGE[format];
  const pitch = between(random, 29, 31.5);
  // OCR-B advances 0.742 em a character and librsvg ignores textLength, so the size sets the pitch: 28-33 px,
  // ICAO's 2.54 mm at 300 dpi (30 px) within 10%.
  const fontSize = pitch / between(random, 0.7, 0.78);
  const advance = OCRB_ADVANCE * fontSize;
  // Laser-engraved and inkjet MRZs print heavier than the font's outline.
  const weight = random() < 0.4 ? between(random, 0.5, 1.6) : 0;
  const lineGap = fontSize * (format === 'TD1' ? between(random, 1.15, 1.3) : between(random, 1.3, 1.6));
  // Inside the page, as ICAO prints it: the longest line's last character cell ends on the page at the latest.
  const mrzLeft = Math.min(
    between(random, 0.04, 0.06) * width,
    width - Math.max(...lines.map((l) => l.length)) * advance,
  );
  const bottomMargin = between(random, 0.035, 0.07) * height;
  const mrzTop = height - bottomMargin - lines.length * lineGap;
  const photo: PhotoBox =
    format === 'TD1'
      ? { x: 40, y: 120, width: 250, height: 310 }
      : { x: 50, y: 150, width: Math.round(width * 0.24), height: Math.round(width * 0.3) };
  photo.height = Math.min(photo.height, Math.round(mrzTop - photo.y - 70));
  const title = pick(random, ['PASSPORT', 'IDENTITY CARD', 'RESIDENCE PERMIT', 'TRAVEL DOCUMENT']);
  const header = `<text x="40" y="62" font-family="DejaVu Serif" font-weight="bold" font-size="${(width / 32).toFixed(0)}" fill="#1d4e89">${escape(`${doc.issuingState} · ${title}`)}</text>
  <text x="40" y="96" font-family="DejaVu Sans" font-size="20" fill="#1d4e89">${escape(pick(random, ['PASSEPORT · PASAPORTE', "CARTE D'IDENTITÉ", 'TITRE DE SÉJOUR', 'REISEPASS']))}</text>`;
  const fx = photo.x + photo.width + 40;
  const rows: [string, string][] = [
    ['Type / Code', `${doc.documentCode}   ${doc.issuingState}`],
    ['Surname / Nom', doc.surname],
    ['Given names / Prénoms', doc.givenNames],
    ['Nationality', doc.nationality],
    ['Date of birth', visualDate(doc.birthDate, 30)],
    ['Sex', doc.sex === '<' ? 'X' : doc.sex],
    ['Document no.', doc.documentNumber],
    ['Date of expiry', visualDate(doc.expiryDate, 90)],
  ];
  const rowGap = Math.min(52, (mrzTop - 170) / rows.length);
  const k = rowGap / 52;
  const fields = rows
    .map(
      ([label, value], i) =>
        `<text x="${fx}" y="${(150 + i * rowGap).toFixed(0)}" font-family="DejaVu Sans" font-size="${(15 * k).toFixed(1)}" fill="#4a5d6e">${escape(label)}</text>
  <text x="${fx}" y="${(150 + i * rowGap + 22 * k).toFixed(0)}" font-family="DejaVu Sans" font-weight="bold" font-size="${(22 * k).toFixed(1)}" fill="#111">${escape(value.toUpperCase())}</text>`,
    )
    .join('\n');
  // Printed text and a signature close above the MRZ, as on many data pages: the zone search must not join them.
  const nearGap = between(random, 0.4, 1.4) * fontSize;
  const near =
    random() < 0.5
      ? `<text x="${mrzLeft.toFixed(0)}" y="${(mrzTop - nearGap + fontSize * 0.6).toFixed(0)}" font-family="DejaVu Sans" font-size="${between(random, 16, 24).toFixed(0)}" fill="#333">${escape(pick(random, ["Holder's signature / Signature du titulaire", 'This document remains the property of the issuing state', 'Authority: MINISTRY OF INTERIOR 2019/04']))}</text>`
      : signature(random, fx, mrzTop - nearGap, width * 0.3);
  const clearZone =
    random() < 0.6 ? `fill-opacity="${between(random, 0.5, 0.95).toFixed(2)}"` : 'fill-opacity="0"';
  const ink = pick(random, ['#111', '#1a1a1a', '#202530', '#2b2b2b']);
  const mrz = lines
    .map(
      (line, i) =>
        `<text x="${mrzLeft.toFixed(1)}" y="${(mrzTop + (i + 0.8) * lineGap).toFixed(1)}" font-family="OCR B, DejaVu Sans Mono, monospace" font-size="${fontSize.toFixed(1)}" fill="${ink}" stroke="${ink}" stroke-width="${weight.toFixed(2)}">${escape(line)}</text>`,
    )
    .join('');
  const background = pick(random, [
    ['#eef5f1', '#f7f1e6'],
    ['#f3eef7', '#eaf1f8'],
    ['#fbf6e9', '#efe7f2'],
    ['#f1f1f1', '#e9efe9'],
  ]);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${background[0]}"/><stop offset="1" stop-color="${background[1]}"/>
  </linearGradient></defs>
  <rect width="${width}" height="${height}" rx="${format === 'TD3' ? 6 : 30}" fill="url(#bg)"/>
  ${guilloche(random, width, height, between(random, 0.5, 1))}
  ${header}
  <rect x="${photo.x - 4}" y="${photo.y - 4}" width="${photo.width + 8}" height="${photo.height + 8}" fill="#ddd"/>
  ${fields}
  <rect x="0" y="${(mrzTop - 6).toFixed(0)}" width="${width}" height="${(height - mrzTop + 6).toFixed(0)}" fill="#ffffff" ${clearZone}/>
  ${near}
  ${mrz}
</svg>`;
  return { svg, photo, mrzTop };
}
