/**
 * Augmentation families of the MRZ robustness benchmark: each turns a rendered page into a photo or scan
 * degraded in one way (scale, quarter turn, skew, perspective, blur, JPEG, noise, uneven light and glare, low
 * resolution, a stamp or a guilloche printed across the MRZ), with parameters drawn from a seeded random
 * source. Adapter over sharp plus pure pixel code.
 */
import sharp from 'sharp';
import { between, pick, type Random } from './random-document.js';
import { warpPerspective } from './warp.js';

/** The augmentation families, in report order. */
export const AUGMENTATIONS = [
  'clean',
  'scale',
  'quarter-turn',
  'skew',
  'perspective',
  'blur',
  'jpeg',
  'noise',
  'light-glare',
  'low-resolution',
  'overprint',
] as const;

/** One augmentation family. */
export type Augmentation = (typeof AUGMENTATIONS)[number];

/** A degraded image and the parameters drawn for it (for the report). */
export interface Augmented {
  bytes: Buffer;
  params: string;
}

interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}

async function raw(image: sharp.Sharp): Promise<Rgb> {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const fromRaw = (rgb: Rgb): sharp.Sharp =>
  sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } });

const TABLES = ['#5b4636', '#2f3b45', '#8a8f94', '#c9c2b5', '#1e1e1e', '#6d7b5c'];

/** The page on a table: a margin of a plain colour around it, as in a photo. */
async function onTable(random: Random, page: Rgb, margin: number): Promise<Rgb> {
  const dx = Math.round(page.width * margin * between(random, 0.3, 1));
  const dy = Math.round(page.height * margin * between(random, 0.3, 1));
  return raw(
    fromRaw(page).extend({
      top: dy,
      bottom: Math.round(page.height * margin) - dy + 4,
      left: dx,
      right: Math.round(page.width * margin) - dx + 4,
      background: pick(random, TABLES),
    }),
  );
}

/** Gaussian noise of `sigma` grey levels added to every channel of every pixel (a sensor's grain), in place. */
export function addNoise(random: Random, rgb: Rgb, sigma: number): void {
  for (let i = 0; i < rgb.data.length; i += 2) {
    // Box-Muller: two normal samples per pair of uniforms.
    const r = Math.sqrt(-2 * Math.log(Math.max(1e-9, random())));
    const t = 2 * Math.PI * random();
    rgb.data[i] = Math.max(0, Math.min(255, (rgb.data[i] ?? 0) + sigma * r * Math.cos(t)));
    if (i + 1 < rgb.data.length)
      rgb.data[i + 1] = Math.max(0, Math.min(255, (rgb.data[i + 1] ?? 0) + sigma * r * Math.sin(t)));
  }
}

/** Light falling off across the page, a specular glare spot, and the contrast of a dull print or a dim room. */
function lightAndGlare(random: Random, rgb: Rgb): string {
  const { width, height, data } = rgb;
  const angle = between(random, 0, 2 * Math.PI);
  const dark = between(random, 0.35, 0.7);
  const gx = between(random, 0.1, 0.9) * width;
  const gy = between(random, 0.2, 0.95) * height;
  const radius = between(random, 0.08, 0.25) * Math.max(width, height);
  const glare = between(random, 0.3, 0.7);
  const low = between(random, 40, 100);
  const high = between(random, 170, 235);
  const ux = Math.cos(angle) / width;
  const uy = Math.sin(angle) / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const along = Math.min(1, Math.max(0, 0.5 + (x - width / 2) * ux + (y - height / 2) * uy));
      const light = dark + (1 - dark) * along;
      const d2 = ((x - gx) ** 2 + (y - gy) ** 2) / (2 * radius * radius);
      const g = glare * Math.exp(-d2);
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        const v = (low + ((data[i] ?? 0) * (high - low)) / 255) * light;
        data[i] = Math.round(v + (255 - v) * g);
      }
    }
  }
  return `light ${dark.toFixed(2)}-1, glare ${glare.toFixed(2)}, range ${low.toFixed(0)}-${high.toFixed(0)}`;
}

/** Inks of stamps and security print: coloured, never black. */
const INKS = ['#d02020', '#2050c0', '#20a040', '#c040a0', '#e07010', '#7a5a2a'];

/**
 * Colour printed across the lower half of the page, where the MRZ is, multiplied over it as ink is: a
 * "SPECIMEN" stamp at an angle, or a guilloche of wavy lines; half as dark as black print at most.
 */
function overprintSvg(random: Random, width: number, height: number): { svg: string; params: string } {
  const ink = pick(random, INKS);
  const opacity = between(random, 0.25, 0.5);
  if (random() < 0.5) {
    const size = width * between(random, 0.12, 0.2);
    const angle = between(random, -25, 25);
    const y = height * between(random, 0.7, 0.9);
    const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><text x="${(width / 2).toFixed(0)}" y="${y.toFixed(0)}" font-family="DejaVu Sans" font-weight="bold" font-size="${size.toFixed(0)}" fill="${ink}" fill-opacity="${opacity.toFixed(2)}" text-anchor="middle" transform="rotate(${angle.toFixed(1)} ${(width / 2).toFixed(0)} ${y.toFixed(0)})">SPECIMEN</text></svg>`;
    return { svg, params: `stamp ${ink} ${opacity.toFixed(2)}, ${angle.toFixed(0)}°` };
  }
  const step = height / between(random, 40, 70);
  const waves = between(random, 4, 10);
  const stroke = Math.max(1, height / between(random, 300, 500));
  const paths: string[] = [];
  for (let y0 = height * 0.5; y0 < height; y0 += step) {
    let d = `M 0 ${y0.toFixed(1)}`;
    for (let x = 4; x <= width + 4; x += 4)
      d += ` L ${x} ${(y0 + Math.sin((x / width) * Math.PI * waves) * step * 1.5).toFixed(1)}`;
    paths.push(`<path d="${d}"/>`);
  }
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><g fill="none" stroke="${ink}" stroke-opacity="${opacity.toFixed(2)}" stroke-width="${stroke.toFixed(1)}">${paths.join('')}</g></svg>`;
  return { svg, params: `guilloche ${ink} ${opacity.toFixed(2)}` };
}

/** Degrade a rendered page (PNG) by one family, parameters from `random`; returns JPEG (or PNG) bytes. */
export async function augment(random: Random, family: Augmentation, png: Buffer): Promise<Augmented> {
  let page = await raw(sharp(png));
  const scaled = async (factor: number): Promise<void> => {
    page = await raw(fromRaw(page).resize(Math.max(1, Math.round(page.width * factor))));
  };
  const jpeg = async (quality: number, params: string): Promise<Augmented> => ({
    bytes: await fromRaw(page)
      .jpeg({ quality: Math.round(quality) })
      .toBuffer(),
    params,
  });
  const factor = between(random, 0.5, 1);
  switch (family) {
    case 'clean':
      await scaled(factor);
      return jpeg(90, `scale ${factor.toFixed(2)}`);
    case 'scale': {
      const s = 2 ** between(random, -2, 1);
      await scaled(s);
      return jpeg(90, `scale ${s.toFixed(2)}`);
    }
    case 'quarter-turn': {
      const turn = pick(random, [90, 180, 270]);
      await scaled(factor);
      page = await raw(fromRaw(page).rotate(turn));
      return jpeg(88, `turn ${turn}, scale ${factor.toFixed(2)}`);
    }
    case 'skew': {
      const degrees = pick(random, [-1, 1]) * between(random, 3, 20);
      await scaled(factor);
      page = await onTable(random, page, 0.15);
      page = await raw(fromRaw(page).rotate(degrees, { background: '#7d7d7d' }));
      return jpeg(88, `skew ${degrees.toFixed(1)}°, scale ${factor.toFixed(2)}`);
    }
    case 'perspective': {
      await scaled(factor);
      page = await onTable(random, page, 0.2);
      const { width, height } = page;
      const k = between(random, 0.04, 0.12);
      const j = (): number => between(random, 0, k);
      const corners = [
        [width * j(), height * j()],
        [width * (1 - j()), height * j()],
        [width * (1 - j()), height * (1 - j())],
        [width * j(), height * (1 - j())],
      ] as const;
      page = warpPerspective(page, corners, width, height, 110);
      return jpeg(88, `perspective ${k.toFixed(2)}, scale ${factor.toFixed(2)}`);
    }
    case 'blur': {
      const sigma = between(random, 0.8, 2.2);
      await scaled(factor);
      page = await raw(fromRaw(page).blur(sigma));
      return jpeg(88, `blur ${sigma.toFixed(1)}, scale ${factor.toFixed(2)}`);
    }
    case 'jpeg': {
      const quality = between(random, 20, 90);
      await scaled(factor);
      return jpeg(quality, `quality ${quality.toFixed(0)}, scale ${factor.toFixed(2)}`);
    }
    case 'noise': {
      const sigma = between(random, 6, 25);
      await scaled(factor);
      addNoise(random, page, sigma);
      return jpeg(92, `noise ${sigma.toFixed(0)}, scale ${factor.toFixed(2)}`);
    }
    case 'light-glare': {
      await scaled(factor);
      page = await onTable(random, page, 0.1);
      const params = lightAndGlare(random, page);
      return jpeg(88, `${params}, scale ${factor.toFixed(2)}`);
    }
    case 'overprint': {
      await scaled(factor);
      const { svg, params } = overprintSvg(random, page.width, page.height);
      page = await raw(fromRaw(page).composite([{ input: Buffer.from(svg), blend: 'multiply' }]));
      return jpeg(90, `${params}, scale ${factor.toFixed(2)}`);
    }
    case 'low-resolution': {
      const width = Math.round(between(random, 240, 360));
      await scaled(width / page.width);
      return jpeg(between(random, 70, 92), `width ${width}`);
    }
  }
}
