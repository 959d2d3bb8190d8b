import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { DecodedImage } from '../../imaging/decode.js';
import { augment } from '../render/augment.js';
import { seededRandom } from '../render/random-document.js';
import { renderDocument } from '../render/render-document.js';
import { bent } from '../render/bend.js';
import { inScene } from '../render/scene.js';
import { shaken } from '../render/shake.js';
import { webImage } from '../render/web.js';
import { disposeMrzReader, readMrz } from './index.js';
import { withThirdLine } from './reader.js';
import type { ZoneLine, ZoneSearch } from './zone.js';
import { relight, renderMrzCard, TD1_SPECIMEN, TD3_SPECIMEN, toDecoded } from './test-fixtures.js';

/** A rendered data page, turned and resized like a photo or a web image. */
async function page(
  format: 'TD1' | 'TD2' | 'TD3',
  seed: number,
  options: {
    rotate?: number;
    width?: number;
    corrupt?: 'document_number' | 'birth_date' | 'expiry_date' | 'composite';
  } = {},
): Promise<{ image: DecodedImage; lines: string[] }> {
  const rendered = await renderDocument({ format, seed, corruptMrz: options.corrupt ?? 'none' });
  let image = sharp(rendered.png);
  if (options.rotate) image = image.rotate(options.rotate, { background: '#808080' });
  if (options.width) image = sharp(await image.png().toBuffer()).resize(options.width);
  return { image: await toDecoded(await image.png().toBuffer()), lines: rendered.lines };
}

/**
 * Expect a rendered page, made into a harder image by `make` (given its MRZ's character pitch as read clean), to read
 * valid and exactly as rendered.
 */
async function readsAsRendered(
  format: 'TD1' | 'TD2' | 'TD3',
  seed: number,
  make: (png: Buffer, pitch: number) => Promise<Buffer>,
): Promise<void> {
  const rendered = await renderDocument({ format, seed });
  const clean = await readMrz(await toDecoded(rendered.png));
  const pitch = clean!.region.width / clean!.lines[0]!.length;
  const reading = await readMrz(await toDecoded(await make(rendered.png, pitch)));
  expect(reading, `${format} ${seed}`).toMatchObject({ format, valid: true, lines: rendered.lines });
}

/**
 * An MRZ alone, in OCR B of `size` px outlined by a `stroke` px wide (heavy print, as ink spreads), its characters set
 * three pixels closer than the font's pitch (a page seen a little from the side), as a JPEG.
 */
async function heavyZone(lines: readonly string[], size: number, stroke: number): Promise<DecodedImage> {
  const [width, height] = [Math.round((size * 0.742 - 3) * lines[0]!.length + 40), size * 6];
  const text = lines
    .map(
      (line, i) =>
        `<text x="20" y="${Math.round(size * (2.6 + 1.7 * i))}">${line.replace(/</g, '&lt;')}</text>`,
    )
    .join('');
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#fff"/><g font-family="OCR B, DejaVu Sans Mono, monospace" font-size="${size}" fill="#111" stroke="#111" stroke-width="${stroke}" letter-spacing="-3">${text}</g></svg>`;
  return toDecoded(await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer());
}

const PLANK = '#b89a70';

/** A page (PNG) in the middle of a table of planks, whose dark seams above and below it run level across it. */
async function onPlanks(page: Buffer, width: number, height: number): Promise<Buffer> {
  const [w, h] = [Math.round(width * 1.5), height * 2];
  const seam = Math.max(4, Math.round(h / 160));
  const seams = [0.05, 0.12, 0.19, 0.81, 0.88, 0.95]
    .map((at) => `<rect x="0" y="${Math.round(at * h)}" width="${w}" height="${seam}" fill="#3a2a1a"/>`)
    .join('');
  const table = `<svg width="${w}" height="${h}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="${PLANK}"/>${seams}</svg>`;
  return sharp(Buffer.from(table))
    .composite([{ input: page }])
    .png()
    .toBuffer();
}

describe('readMrz (real PP-OCRv4 model, rendered documents)', () => {
  afterAll(async () => disposeMrzReader());

  it('reads a TD3 passport zone with every check digit and locates it at the bottom', async () => {
    const image = await toDecoded(await renderMrzCard(TD3_SPECIMEN));
    const reading = await readMrz(image);
    expect(reading).toMatchObject({ format: 'TD3', valid: true, lines: TD3_SPECIMEN });
    expect(reading!.fields).toMatchObject({ lastName: 'ERIKSSON', documentNumber: 'L898902C3' });
    expect(reading!.region.y).toBeGreaterThan(image.height / 2);
    expect(reading!.region.y + reading!.region.height).toBeLessThanOrEqual(image.height);
    expect(reading!.confidence).toBeGreaterThan(0.5);
  });

  it('reads a three-line TD1 identity card', async () => {
    const image = await toDecoded(await renderMrzCard(TD1_SPECIMEN, { width: 800 }));
    expect(await readMrz(image)).toMatchObject({ format: 'TD1', valid: true, lines: TD1_SPECIMEN });
  });

  it('reads a TD1 card whose first line has no filler (capitals and digits, like a line of print)', async () => {
    // A two-letter document code and optional data that fills its field; check digits computed for these values.
    const lines = ['IDUTOD231458907AB12CD34EF56GH7', '7408122F1204159UTO<<<<<<<<<<<0', TD1_SPECIMEN[2]!];
    const card = await renderMrzCard(lines, { width: 800 });
    expect(await readMrz(await toDecoded(card))).toMatchObject({ format: 'TD1', valid: true, lines });
    // Upside down: the zone's first line as found is the name line, turned; the line without a filler is last.
    const upsideDown = await toDecoded(await renderMrzCard(lines, { width: 800, rotate: 180 }));
    expect(await readMrz(upsideDown)).toMatchObject({ format: 'TD1', valid: true, lines });
    // Blurred, smaller: the first line reads less surely, and no filler shows in it either way.
    const soft = await sharp(card).resize(500).blur(1.5).png().toBuffer();
    expect(await readMrz(await toDecoded(soft))).toMatchObject({ format: 'TD1', valid: true, lines });
    // Nor has the second (its optional data full): the name line tells the direction.
    const full = [
      'IDUTOL898902C36AB12CD34EF56GH7',
      '7408122F3204153UTO123456789018',
      'VANDERWOUDENBERG<HOLLANDER<<AL',
    ];
    const fullCard = await toDecoded(await renderMrzCard(full, { width: 800 }));
    expect(await readMrz(fullCard)).toMatchObject({ format: 'TD1', valid: true, lines: full });
  });

  it('reads a page upside down and turned a quarter either way', async () => {
    for (const [format, rotate] of [
      ['TD3', 180],
      ['TD1', 90],
      ['TD2', 270],
    ] as const) {
      const { image, lines } = await page(format, 40 + rotate, { rotate });
      const reading = await readMrz(image);
      expect(reading, `${format} turned ${rotate}°`).toMatchObject({ format, valid: true, lines });
      expect(reading!.region.width < reading!.region.height, `${format} turned ${rotate}°`).toBe(
        rotate !== 180,
      );
    }
  });

  it('reads a French national ID card by its own layout', async () => {
    const rendered = await renderDocument({
      format: 'TD2',
      seed: 7,
      document: { documentCode: 'ID', issuingState: 'FRA', optionalData: '750123' },
    });
    const reading = await readMrz(await toDecoded(rendered.png));
    expect(rendered.lines[0]).toMatch(/^IDFRA/);
    expect(reading).toMatchObject({ format: 'FRENCH_ID', valid: true, lines: rendered.lines });
  });

  it('reads pages askew by up to 20°', async () => {
    const skews = [
      ['TD3', -18],
      ['TD1', 12],
      ['TD2', 20],
      ['TD1', -7],
      ['TD3', 15],
    ] as const;
    let exact = 0;
    for (const [format, rotate] of skews) {
      const { image, lines } = await page(format, 40 + rotate, { rotate });
      const reading = await readMrz(image);
      expect(reading?.format, `${format} turned ${rotate}°`).toBe(format);
      if (reading!.valid && reading!.lines.join() === lines.join()) exact++;
    }
    // A sample of the benchmark's skew family (95-100% valid there, some valid readings with a letter wrong where
    // no check digit can see it): one page in five may miss.
    expect(exact).toBeGreaterThanOrEqual(skews.length - 1);
  });

  it('reads a page askew of longer edges around it (a table of planks, a screen)', async () => {
    // The planks' seams outweigh the page's print: levelled by them alone, the zone stayed askew.
    for (const [format, seed, rotate] of [
      ['TD3', 3, 14],
      ['TD1', 4, -12],
    ] as const) {
      const rendered = await renderDocument({ format, seed });
      const askew = await sharp(rendered.png).rotate(rotate, { background: PLANK }).png().toBuffer();
      const { width, height } = await sharp(askew).metadata();
      const reading = await readMrz(await toDecoded(await onPlanks(askew, width, height)));
      expect(reading, `${format} turned ${rotate}°`).toMatchObject({
        format,
        valid: true,
        lines: rendered.lines,
      });
    }
  });

  it('reads a page lying among other print, its zone across under half the photo', async () => {
    // A card's light print on a dark desk near both ends of the zone's lines: closed at the pitch of a zone
    // across the whole photo, the lines joined it.
    const rendered = await renderDocument({ format: 'TD3', seed: 4 });
    const half = await sharp(rendered.png)
      .resize(Math.round(rendered.width / 2))
      .png()
      .toBuffer();
    const photo = await inScene(half, 2.4);
    expect(await readMrz(await toDecoded(photo))).toMatchObject({ valid: true, lines: rendered.lines });
  });

  it('reads bent pages, whose lines are arcs (an open passport photographed on a desk)', async () => {
    for (const [format, seed] of [
      ['TD3', 4],
      ['TD1', 4],
      ['TD2', 3],
    ] as const) {
      const rendered = await renderDocument({ format, seed });
      // The sides about a character's width above the middle: a line's ends lie a text height off its chord.
      const photo = await bent(rendered.png, rendered.width / 30, 'sides');
      const reading = await readMrz(await toDecoded(photo));
      expect(reading, format).toMatchObject({ format, valid: true, lines: rendered.lines });
    }
  });

  it('reads the names of pages smeared along their lines (a shaken camera) exactly', async () => {
    for (const [format, seed] of [
      ['TD2', 3],
      ['TD3', 3],
      ['TD2', 7],
    ] as const) {
      // A third of a character: an M's middle strokes run together and it reads as a W or an N.
      await readsAsRendered(format, seed, (png, pitch) => shaken(png, 0.35 * pitch, 0));
    }
  });

  it('finds heavy print set close, whose characters touch', async () => {
    for (const [lines, size, stroke] of [
      [TD3_SPECIMEN, 18, 1.6],
      [TD3_SPECIMEN, 20, 2.2],
      [
        ['P<TWNLIN<<CHIEN<SHENG<<<<<<<<<<<<<<<<<<<<<<<', 'M000004264TWN6803029M9801048F122187664<<<<66'],
        18,
        1.6,
      ],
    ] as const) {
      const reading = await readMrz(await heavyZone(lines, size, stroke));
      expect(reading, `${size} px, stroke ${stroke}`).toMatchObject({ format: 'TD3', valid: true, lines });
    }
  });

  it('reads small faint web images, whose fillers the recogniser takes for C, K and S', async () => {
    for (const [format, seed, light] of [
      // Print light grey on white paper.
      ['TD3', 14, 255],
      // Both dim: paper at grey 158.
      ['TD2', 5, 158],
      ['TD3', 10, 158],
    ] as const) {
      // Characters 6 px wide, 40 grey levels between print and paper, JPEG 85.
      await readsAsRendered(format, seed, (png, pitch) => webImage(png, 6 / pitch, 40, light));
    }
  });

  it('reads a washed-out page and pages with glare over part of their zone', async () => {
    for (const [format, seed, lighting] of [
      // 25 grey levels between print and paper.
      ['TD3', 5, { low: 140, high: 165 }],
      // Glare over the zone's middle in a dull print under falling light.
      ['TD1', 6, { low: 100, high: 200, dark: 0.4, glare: 0.8, glareX: 0.5, glareY: 0.85 }],
      // Strong glare over the zone's end.
      ['TD2', 7, { low: 60, high: 220, glare: 0.9, glareX: 0.7, glareY: 0.85 }],
    ] as const) {
      const { image, lines } = await page(format, seed);
      const reading = await readMrz(relight(image, lighting));
      const label = `${format} ${JSON.stringify(lighting)}`;
      expect(reading, label).toMatchObject({ format, valid: true });
      // The lines with check digits read as printed; the name line (no check digit) at most one letter off.
      const name = format === 'TD1' ? 2 : 0;
      lines.forEach((line, i) => {
        const read = reading!.lines[i]!;
        const off = Array.from(line).filter((c, k) => read[k] !== c).length;
        expect(i === name ? off <= 1 : off === 0, `${label} line ${i}: ${read}`).toBe(true);
      });
    }
  });

  it('reads pages with a guilloche or a stamp printed in colour across their zone', async () => {
    // Each joined the characters into blots in the only ink mask the search had.
    for (const [format, seed] of [
      ['TD3', 1],
      ['TD3', 2],
      ['TD2', 1],
      ['TD3', 15],
    ] as const) {
      const rendered = await renderDocument({ format, seed });
      const { bytes, params } = await augment(seededRandom(seed), 'overprint', rendered.png);
      const reading = await readMrz(await toDecoded(bytes));
      expect(reading, `${format} seed ${seed}, ${params}`).toMatchObject({ format, valid: true });
    }
  });

  it('reads a skewed page through a red frame drawn level across its zone (a scanning app’s guide)', async () => {
    for (const [lines, angle, inset] of [
      [TD3_SPECIMEN, -12, 0.3],
      [TD3_SPECIMEN, 10, 0.3],
      [TD1_SPECIMEN, -12, 0.6],
      [TD1_SPECIMEN, 6, 0.6],
    ] as const) {
      const turned = await sharp(await renderMrzCard(lines))
        .rotate(angle, { background: '#c8b48c' })
        .png()
        .toBuffer();
      const plain = await readMrz(await toDecoded(turned));
      expect(plain?.valid, `${lines.length} lines at ${angle}°, no frame`).toBe(true);
      // The frame's edges cross the ends of the skewed lines, `inset` of a text line inside the zone's box.
      const { x, y, width, height } = plain!.region;
      const d = Math.round((inset * height) / lines.length);
      const { width: w, height: h } = await sharp(turned).metadata();
      const frame = `<svg width="${w}" height="${h}" xmlns="http://www.w3.org/2000/svg"><rect x="${x + d}" y="${y + d}" width="${width - 2 * d}" height="${height - 2 * d}" fill="none" stroke="#e01818" stroke-width="6"/></svg>`;
      const framed = await sharp(turned)
        .composite([{ input: Buffer.from(frame) }])
        .png()
        .toBuffer();
      const reading = await readMrz(await toDecoded(framed));
      expect(reading?.valid, `${lines.length} lines at ${angle}°: ${reading?.lines.join(' ')}`).toBe(true);
    }
  });

  it('reads a zone from its document code when ink just before its lines was taken for characters', async () => {
    for (const lines of [TD3_SPECIMEN, TD1_SPECIMEN]) {
      const card = await renderMrzCard(lines, { before: 'HN' });
      expect(await readMrz(await toDecoded(card)), `${lines.length} lines`).toMatchObject({
        valid: true,
        lines,
      });
    }
  });

  it('reads a small web image (a data page 300 pixels wide)', async () => {
    const { image, lines } = await page('TD3', 2, { width: 300 });
    expect(await readMrz(image)).toMatchObject({ valid: true, lines });
  });

  it('reads passport pages 270 pixels wide (characters about 5 pixels apart)', async () => {
    for (const seed of [62, 63, 70]) {
      const { image, lines } = await page('TD3', seed, { width: 270 });
      expect(await readMrz(image), `seed ${seed}`).toMatchObject({ valid: true, lines });
    }
  });

  it('reads black-and-white scans (two grey levels, hard edges) of a passport and an identity card', async () => {
    for (const [format, seed, width] of [
      ['TD3', 1, 450],
      ['TD3', 7, 650],
      ['TD1', 1, 450],
    ] as const) {
      const { png, lines } = await renderDocument({ format, seed });
      const scan = await sharp(png).resize(width).greyscale().threshold(128).png().toBuffer();
      const reading = await readMrz(await toDecoded(scan));
      expect(reading, `${format} seed ${seed}, ${width} px`).toMatchObject({ valid: true, lines });
    }
  });

  it('finds a zone whose characters blur into each other along the lines (a camera shaken sideways)', async () => {
    const { png, document } = await renderDocument({ format: 'TD3', seed: 1 });
    const length = 7;
    const kernel = Array.from({ length: 3 * length }, (_, i) => (i >= length && i < 2 * length ? 1 : 0));
    const shaken = await sharp(png)
      .resize(700)
      .convolve({ width: length, height: 3, kernel })
      .png()
      .toBuffer();
    const reading = await readMrz(await toDecoded(shaken));
    expect(reading?.valid).toBe(true);
    expect(reading!.fields).toMatchObject({
      documentNumber: document.documentNumber,
      birthDate: document.birthDate,
      expirationDate: document.expiryDate,
    });
  });

  it('reads pages with a hard shadow across their zone (a phone held over the page)', async () => {
    // Right of a line across the page at 40% of its width, the light falls to a third.
    const shadowed = (image: DecodedImage): DecodedImage => {
      const rgb = Buffer.from(image.rgb);
      for (let y = 0; y < image.height; y++)
        for (let x = Math.round(image.width * 0.4 + y * 0.2); x < image.width; x++)
          for (let c = 0; c < 3; c++)
            rgb[(y * image.width + x) * 3 + c] = Math.round(rgb[(y * image.width + x) * 3 + c]! * 0.35);
      return { ...image, rgb };
    };
    for (const format of ['TD1', 'TD3'] as const) {
      const { image, lines } = await page(format, 1, { width: 900 });
      const reading = await readMrz(shadowed(image));
      expect(reading?.lines, format).toEqual(lines);
    }
  });

  it('reads forged check digits as invalid, never repairs them into validity', async () => {
    for (const [format, corrupt, check] of [
      ['TD3', 'birth_date', 'birthDateCheckDigit'],
      ['TD3', 'composite', 'compositeCheckDigit'],
      ['TD1', 'document_number', 'documentNumberCheckDigit'],
      ['TD2', 'expiry_date', 'expirationDateCheckDigit'],
    ] as const) {
      const { image } = await page(format, 11, { corrupt });
      const reading = await readMrz(image);
      expect(reading, `${format} with a wrong ${corrupt} check digit`).not.toBeNull();
      expect(reading!.valid).toBe(false);
      // Read as printed: the forged digit is the check that fails.
      expect(reading!.checks.find((c) => c.name === check)?.valid, `${format} ${check}`).toBe(false);
    }
  });

  it('reads a misprint it reads surely once: one recogniser call a line, no second cut', async () => {
    const { image } = await page('TD1', 11, { corrupt: 'document_number' });
    let calls = 0;
    const reading = await readMrz(image, {
      spareCore: () => {
        calls++;
        return false;
      },
    });
    expect(reading?.valid).toBe(false);
    expect(reading?.checks.find((c) => c.name === 'documentNumberCheckDigit')?.valid).toBe(false);
    expect(calls).toBe(3);
  });

  it('answers null for a page of ordinary text and for a blank image', async () => {
    const text = await renderMrzCard([], {
      printed: ['The quick brown fox jumps over the lazy dog', 'Pack my box with five dozen liquor jugs'],
    });
    expect(await readMrz(await toDecoded(text))).toBeNull();
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(await readMrz(await toDecoded(blank))).toBeNull();
  });

  it('answers null, without throwing, for degenerate sizes and extreme aspect ratios', async () => {
    for (const [width, height] of [
      [1, 1],
      [1, 65000],
      [65000, 1],
      [3, 4000],
      [4000, 3],
      [16, 16],
      [20000, 20],
      [20, 20000],
    ] as const) {
      const image: DecodedImage = {
        format: 'png',
        width,
        height,
        rgb: Buffer.alloc(width * height * 3, 200),
      };
      await expect(readMrz(image), `${width}x${height}`).resolves.toBeNull();
    }
  });

  it('stops when asked to, answering what it has', async () => {
    const image = await toDecoded(await renderMrzCard(TD3_SPECIMEN));
    expect(await readMrz(image, { shouldStop: () => true })).toBeNull();
    expect(await readMrz(image, { budgetMs: 0 })).toBeNull();
    expect(await readMrz(image, { signal: AbortSignal.abort() })).toBeNull();
  });
});

describe('where the third line of a two-line zone is looked for', () => {
  const line = (cy: number): ZoneLine => ({ cx: 200, cy, angle: 0, length: 300, height: 10 });
  const thirds = (cys: number[]): number[][] => {
    const search: ZoneSearch = { lines: cys.map(line), candidates: [], askew: [[], []] };
    return withThirdLine(search, { lines: [0, 1], score: 1 }).map((zone) =>
      zone.lines.map((i) => search.lines[i]!.cy),
    );
  };

  it('one spacing above or below two neighbouring lines', () => {
    expect(thirds([100, 120])).toEqual([
      [80, 100, 120],
      [100, 120, 140],
    ]);
  });

  it('first between two lines as far apart as the first and last of three', () => {
    expect(thirds([100, 140])).toEqual([
      [100, 120, 140],
      [60, 100, 140],
      [100, 140, 180],
    ]);
  });
});
