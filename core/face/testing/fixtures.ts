import sharp from 'sharp';
import { packageFile } from '../../assets/assets.js';

/**
 * Test and benchmark images derived from the photos npm ships with @vladmandic/face-api (a devDependency), so tests
 * run on a fresh machine without the evaluation data: selfies cut from the group photos, ID cards rendered with
 * sharp with a portrait and a smaller ghost portrait pasted on.
 */

/** Path of one of the six demo photos (1920 px wide group photos). */
export function samplePhoto(index: 1 | 2 | 3 | 4 | 5 | 6): string {
  return packageFile('@vladmandic/face-api', `demo/sample${index}.jpg`);
}

/** A person of a demo photo: where to cut around them (source pixels; their face sits inside). */
export interface Person {
  photo: 1 | 2 | 3 | 4 | 5 | 6;
  /** Centre of the face. */
  cx: number;
  cy: number;
  /** Rough face size. */
  size: number;
}

/** Three people of sample1.jpg (left, middle, right) and one of sample3.jpg. */
export const PEOPLE = {
  a: { photo: 1, cx: 505, cy: 473, size: 210 },
  b: { photo: 1, cx: 930, cy: 535, size: 215 },
  c: { photo: 1, cx: 1580, cy: 325, size: 225 },
  d: { photo: 3, cx: 1189, cy: 355, size: 250 },
} as const satisfies Record<string, Person>;

/** A head-and-shoulders JPEG of a person, `width` pixels wide (portrait 4:5). */
export async function selfieOf(person: Person, width = 600, quality = 90): Promise<Buffer> {
  const w = Math.round(person.size * 2.4);
  const h = Math.round(w * 1.25);
  const left = Math.max(0, Math.round(person.cx - w / 2));
  const top = Math.max(0, Math.round(person.cy - h * 0.42));
  const meta = await sharp(samplePhoto(person.photo)).metadata();
  const width0 = Math.min(w, (meta.width ?? 0) - left);
  const height0 = Math.min(h, (meta.height ?? 0) - top);
  return sharp(samplePhoto(person.photo))
    .extract({ left, top, width: width0, height: height0 })
    .resize(width, Math.round((width * height0) / width0))
    .jpeg({ quality })
    .toBuffer();
}

/** A tight passport-style portrait (3:4) of a person, `width` pixels wide. */
async function portraitOf(person: Person, width: number, ghost: boolean): Promise<Buffer> {
  const w = Math.round(person.size * 1.7);
  const h = Math.round((w * 4) / 3);
  let img = sharp(samplePhoto(person.photo))
    .extract({
      left: Math.round(person.cx - w / 2),
      top: Math.round(person.cy - h * 0.45),
      width: w,
      height: h,
    })
    .resize(width, Math.round((width * 4) / 3));
  // Ghost portraits are printed faint and grey; the main portrait slightly desaturated like a card print.
  img = ghost ? img.greyscale().linear(0.45, 140) : img.modulate({ saturation: 0.7 });
  return img.png().toBuffer();
}

/**
 * An ID-card image (ISO ID-1 proportions, `width` px wide) with the person's portrait on the left, a ghost portrait
 * at a third of its size on the right, and text-like bars; JPEG.
 */
export async function idCardOf(
  person: Person,
  width = 1012,
  options: { ghost?: boolean; quality?: number } = {},
): Promise<Buffer> {
  const height = Math.round(width / 1.586);
  const u = width / 1012;
  const portraitWidth = Math.round(260 * u);
  const bars = Array.from({ length: 6 }, (_, i) => {
    const y = Math.round((150 + i * 55) * u);
    const w = Math.round((420 - (i % 3) * 90) * u);
    return `<rect x="${Math.round(340 * u)}" y="${y}" width="${w}" height="${Math.round(22 * u)}" fill="#33415c"/>`;
  }).join('');
  const svg = Buffer.from(
    `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
      `<rect width="100%" height="100%" fill="#dfe9f3"/><rect width="100%" height="${Math.round(90 * u)}" fill="#1f4e79"/>${bars}</svg>`,
  );
  const layers: sharp.OverlayOptions[] = [
    {
      input: await portraitOf(person, portraitWidth, false),
      left: Math.round(40 * u),
      top: Math.round(130 * u),
    },
  ];
  if (options.ghost !== false) {
    layers.push({
      input: await portraitOf(person, Math.round(portraitWidth / 3), true),
      left: Math.round(850 * u),
      top: Math.round(380 * u),
    });
  }
  return sharp(svg)
    .composite(layers)
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer();
}

/** Rotate an image clockwise by a quarter-turn multiple (a card photographed sideways). */
export async function rotated(image: Buffer, degrees: 90 | 180 | 270): Promise<Buffer> {
  return sharp(image).rotate(degrees).jpeg({ quality: 92 }).toBuffer();
}

/**
 * Make a camera-like upload of about `bytes`: resize to `width`, add sensor-like grain (smooth upscaled pixels would
 * otherwise need 10+ megapixels to weigh 1 MB), and pick the JPEG quality that lands closest to the target size.
 */
export async function photoLike(image: Buffer, width: number, bytes: number): Promise<Buffer> {
  const { data, info } = await sharp(image)
    .resize(width)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Deterministic grain (a linear congruential generator), so benchmark inputs are the same on every run.
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i]! + ((seed >> 16) % 13) - 6));
  }
  const encode = (quality: number): Promise<Buffer> =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  let lo = 40;
  let hi = 98;
  let best = await encode(hi);
  for (let step = 0; step < 6; step++) {
    const q = Math.round((lo + hi) / 2);
    const out = await encode(q);
    if (Math.abs(out.length - bytes) < Math.abs(best.length - bytes)) best = out;
    if (out.length > bytes) hi = q;
    else lo = q;
  }
  return best;
}

/** The ID card lying on a blurred photo backdrop, the card filling about 70% of the frame (a phone shot of a card). */
export async function cardOnDesk(card: Buffer, width: number): Promise<Buffer> {
  const height = Math.round(width * 0.75);
  const backdrop = await sharp(samplePhoto(2)).resize(width, height, { fit: 'cover' }).blur(8).toBuffer();
  const cardWidth = Math.round(width * 0.7);
  const scaled = await sharp(card).resize(cardWidth).toBuffer();
  const cardHeight = Math.round(cardWidth / 1.586);
  return sharp(backdrop)
    .composite([
      {
        input: scaled,
        left: Math.round((width - cardWidth) / 2),
        top: Math.round((height - cardHeight) / 2),
      },
    ])
    .jpeg({ quality: 95 })
    .toBuffer();
}
