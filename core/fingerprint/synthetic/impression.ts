import type { GrayImage } from '../types.js';
import type { MasterPrint } from './master.js';
import { fingertipMask } from './orientation.js';
import { createPrng, mixSeed, type Prng } from './prng.js';

/** How far an impression may depart from the master; the defaults resemble a cooperative user on a sensor. */
export interface ImpressionOptions {
  /** Maximum rotation, degrees. */
  maxRotationDegrees?: number;
  /** Maximum translation, pixels. */
  maxShift?: number;
  /** Maximum elastic displacement, pixels. */
  maxDistortion?: number;
  /** Standard deviation of the additive grey noise. */
  noise?: number;
  /** Scale of the contact area, 1 = the whole fingertip; lower values give partial prints. */
  contactScale?: number;
  /** Strength of dry (faded) and wet (smeared) patches, 0 = even pressure. */
  dryness?: number;
}

/** Smooth random displacement made of a few low-frequency waves. */
function distortionField(rng: Prng, amplitude: number): (x: number, y: number) => [number, number] {
  const waves = Array.from({ length: 3 }, () => ({
    kx: rng.range(-1, 1) * ((2 * Math.PI) / 260),
    ky: rng.range(-1, 1) * ((2 * Math.PI) / 260),
    phase: rng.range(0, 2 * Math.PI),
    ax: (rng.gauss() * amplitude) / 2,
    ay: (rng.gauss() * amplitude) / 2,
  }));
  return (x, y) => {
    let dx = 0;
    let dy = 0;
    for (const w of waves) {
      const s = Math.sin(w.kx * x + w.ky * y + w.phase);
      dx += w.ax * s;
      dy += w.ay * s;
    }
    return [dx, dy];
  };
}

function sample(field: Float32Array, width: number, height: number, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= width - 1 || y >= height - 1) return -1;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * width + x0;
  const top = (field[i] ?? 0) * (1 - fx) + (field[i + 1] ?? 0) * fx;
  const bottom = (field[i + width] ?? 0) * (1 - fx) + (field[i + width + 1] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * Render impression `impression` of a master print: rotation and translation of the finger on the sensor,
 * elastic skin distortion, pressure (ridge thickness and dry patches), partial contact and sensor noise.
 * Deterministic for (master seed, impression). Dark ridges on a light background, like an optical sensor.
 */
export function renderImpression(
  master: MasterPrint,
  impression: number,
  options: ImpressionOptions = {},
): GrayImage {
  const { width, height, shape } = master;
  const rng = createPrng(mixSeed(master.seed, 1000 + impression));
  const maxRotation = ((options.maxRotationDegrees ?? 15) * Math.PI) / 180;
  const maxShift = options.maxShift ?? 20;
  const angle = rng.range(-maxRotation, maxRotation);
  const shiftX = rng.range(-maxShift, maxShift);
  const shiftY = rng.range(-maxShift, maxShift);
  const distort = distortionField(rng, options.maxDistortion ?? 3);
  const dryness = distortionField(rng, options.dryness ?? 0.35);
  const pressure = rng.range(-0.2, 0.2);
  const contrast = rng.range(150, 210);
  const noise = options.noise ?? 10;
  const contact = (options.contactScale ?? 1) * rng.range(0.88, 1);
  const contactDx = rng.range(-0.12, 0.12) * shape.rx;
  const contactDy = rng.range(-0.1, 0.1) * shape.ry;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = width / 2;
  const cy = height / 2;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Inverse mapping: where on the master does this sensor pixel look?
      const [ex, ey] = distort(x, y);
      const px = x - cx - shiftX;
      const py = y - cy - shiftY;
      const mx = cos * px + sin * py + cx + ex;
      const my = -sin * px + cos * py + cy + ey;
      const mask = fingertipMask(shape, mx, my, contact, contactDx, contactDy);
      let ink = 0;
      if (mask > 0) {
        const ridge = sample(master.ridges, width, height, mx, my);
        const bias = pressure + dryness(x, y)[0];
        ink = mask / (1 + Math.exp(-5 * (ridge + bias)));
      }
      const value = 235 - contrast * ink + rng.gauss() * noise;
      data[y * width + x] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
  return { width, height, data };
}
