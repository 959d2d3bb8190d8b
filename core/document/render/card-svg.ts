/**
 * SVG layers of a rendered ID card (1011x638 px, ID-1/TD1 proportions): guilloche background, printed
 * fields, MRZ text and the printed mark. Pure string building; render-card.ts rasterises and composites.
 */
import type { CardHolder } from './mrz-td1.js';
import { markSvgContent, MARK_BOX, type MarkKind } from './marks.js';

/** Card size in pixels (85.6 x 54 mm at about 300 dpi). */
export const CARD = { width: 1011, height: 638 } as const;

/** Where each element sits on the card. */
export const LAYOUT = {
  portrait: { x: 40, y: 112, width: 250, height: 310 },
  ghost: { x: 680, y: 268, width: 124, height: 154 },
  mark: { x: 826, y: 104, width: 150, height: 180 },
  mrz: { x: 50, y: 466, lineHeight: 50, fontSize: 40 },
  barcode: { x: 320, y: 440, width: 660, height: 180 },
} as const;

function guilloche(): string {
  const paths: string[] = [];
  // Overlapping sine families, like the fine-line security print of real cards; fixed parameters keep it deterministic.
  for (let k = 0; k < 18; k++) {
    const amplitude = 18 + (k % 5) * 6;
    const period = 140 + (k % 4) * 35;
    const offsetY = 20 + k * 34;
    const phase = k * 0.7;
    let d = '';
    for (let x = 0; x <= CARD.width; x += 8) {
      const y = offsetY + amplitude * Math.sin((x / period) * 2 * Math.PI + phase);
      d += `${x === 0 ? 'M' : 'L'}${x} ${y.toFixed(1)} `;
    }
    const colour = k % 2 === 0 ? '#b9d3c9' : '#d6c3dc';
    paths.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.3"/>`);
  }
  const rings: string[] = [];
  for (let r = 30; r <= 200; r += 14) {
    rings.push(`<circle cx="560" cy="250" r="${r}" fill="none" stroke="#e3d9b8" stroke-width="1"/>`);
  }
  return paths.join('') + rings.join('');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function formatDate(yymmdd: string): string {
  const yy = Number(yymmdd.slice(0, 2));
  const century = yy > 40 ? 19 : 20;
  return `${yymmdd.slice(4, 6)}.${yymmdd.slice(2, 4)}.${century}${yymmdd.slice(0, 2)}`;
}

/** Labelled fields printed beside the portrait. */
export function fieldsSvg(holder: CardHolder, title: string, subtitle: string): string {
  const rows: [string, string, number, number][] = [
    ['Surname / Nom', holder.surname, 320, 130],
    ['Given names / Prénoms', holder.givenNames, 320, 176],
    ['Nationality', holder.nationality, 320, 222],
    ['Sex', holder.sex, 520, 222],
    ['Date of birth', formatDate(holder.birthDate), 320, 268],
    ['Document no.', holder.documentNumber, 320, 314],
    ['Date of expiry', formatDate(holder.expiryDate), 320, 360],
  ];
  const items = rows.map(
    ([label, value, x, y]) =>
      `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="14" fill="#4a5d6e">${escape(label)}</text>
      <text x="${x}" y="${y + 22}" font-family="DejaVu Sans" font-weight="bold" font-size="21" fill="#111">${escape(value.toUpperCase())}</text>`,
  );
  return `<text x="40" y="58" font-family="DejaVu Serif" font-weight="bold" font-size="34" fill="#1d4e89">${escape(title)}</text>
    <text x="40" y="88" font-family="DejaVu Sans" font-size="18" fill="#1d4e89">${escape(subtitle)}</text>
    ${items.join('\n')}`;
}

/** The three MRZ lines in OCR-B (Debian fonts-ocr-b), falling back to DejaVu Sans Mono (fonts-dejavu-core). */
export function mrzSvg(lines: readonly string[]): string {
  const { x, y, lineHeight, fontSize } = LAYOUT.mrz;
  const texts = lines.map(
    (line, i) =>
      `<text x="${x}" y="${y + (i + 1) * lineHeight}" font-family="OCR B, DejaVu Sans Mono, monospace" font-size="${fontSize}"
        textLength="${(line.length * 30).toString()}" lengthAdjust="spacing" fill="#111">${escape(line)}</text>`,
  );
  return `<rect x="0" y="${y}" width="${CARD.width}" height="${CARD.height - y}" fill="#ffffff" fill-opacity="0.85"/>${texts.join('')}`;
}

/** The printed mark placed in its layout box. */
export function markOnCardSvg(kind: MarkKind): string {
  const { x, y, width, height } = LAYOUT.mark;
  const scale = Math.min(width / MARK_BOX.width, height / MARK_BOX.height);
  return `<g transform="translate(${x} ${y}) scale(${scale.toFixed(4)})">${markSvgContent(kind)}</g>`;
}

/** The whole vector part of the card as one SVG document. */
export function cardSvg(parts: { body: string }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#eef5f1"/><stop offset="0.5" stop-color="#f7f1e6"/><stop offset="1" stop-color="#ece6f3"/>
  </linearGradient></defs>
  <rect width="${CARD.width}" height="${CARD.height}" rx="28" fill="url(#bg)"/>
  ${guilloche()}
  <rect x="0" y="0" width="${CARD.width}" height="100" fill="#ffffff" fill-opacity="0.35"/>
  ${parts.body}
</svg>`;
}
