import type { GrayImage } from '../types.js';
import { shiftImage } from './dataset.js';

/** One way of presenting a set's images to the extractor, still read as 500 dpi (plain data: it crosses threads). */
export type Condition =
  | { kind: 'shift'; dx: number; dy: number }
  | { kind: 'scale'; factor: number }
  | { kind: 'turn'; degrees: number };

/**
 * The robust protocol: five phases of the 8-pixel block grid, the print 0.88 and 1.14 times as large (a 440 or
 * 570 dpi sensor, or finer or coarser ridges, read as 500 dpi), and the print turned 15 degrees each way.
 */
export const ROBUST_CONDITIONS: readonly Condition[] = [
  { kind: 'shift', dx: 0, dy: 0 },
  { kind: 'shift', dx: 3, dy: 5 },
  { kind: 'shift', dx: 6, dy: 2 },
  { kind: 'shift', dx: 1, dy: 7 },
  { kind: 'shift', dx: 5, dy: 4 },
  { kind: 'scale', factor: 0.88 },
  { kind: 'scale', factor: 1.14 },
  { kind: 'turn', degrees: 15 },
  { kind: 'turn', degrees: -15 },
];

/** A short label for tables and JSON: `shift 3,5`, `scale 0.88`, `turn +15`. */
export function conditionName(c: Condition): string {
  if (c.kind === 'shift') return `shift ${c.dx},${c.dy}`;
  if (c.kind === 'scale') return `scale ${c.factor}`;
  return `turn ${c.degrees > 0 ? '+' : ''}${c.degrees}`;
}

/**
 * The image as the condition presents it: moved by (dx, dy) pixels (see shiftImage), resampled to `factor` times
 * its size, or turned by `degrees` (positive: clockwise on screen).
 */
export function applyCondition(c: Condition, image: GrayImage): GrayImage {
  if (c.kind === 'shift') return c.dx || c.dy ? shiftImage(image, c.dx, c.dy) : image;
  if (c.kind === 'scale') return scaleImage(image, c.factor);
  return rotateImage(image, (c.degrees * Math.PI) / 180);
}

/** Bilinear sample of a grey image at (x, y), or `fill` outside it. */
function sampleAt(image: GrayImage, x: number, y: number, fill: number): number {
  const { width, height, data } = image;
  if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return fill;
  const cx = Math.min(width - 1, Math.max(0, x));
  const cy = Math.min(height - 1, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const top = data[y0 * width + x0]! * (1 - fx) + data[y0 * width + x1]! * fx;
  const bottom = data[y1 * width + x0]! * (1 - fx) + data[y1 * width + x1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

/** The image resampled bilinearly to `factor` times its width and height (pixel centres aligned). */
export function scaleImage(image: GrayImage, factor: number): GrayImage {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data[y * width + x] = Math.round(
        sampleAt(image, (x + 0.5) / factor - 0.5, (y + 0.5) / factor - 0.5, 0),
      );
    }
  }
  return { width, height, data };
}

/** Median grey level of the image's outermost rows and columns: the sensor's background. */
function borderMedian(image: GrayImage): number {
  const { width, height, data } = image;
  const counts = new Uint32Array(256);
  for (let x = 0; x < width; x++) {
    counts[data[x]!]!++;
    counts[data[(height - 1) * width + x]!]!++;
  }
  for (let y = 1; y < height - 1; y++) {
    counts[data[y * width]!]!++;
    counts[data[y * width + width - 1]!]!++;
  }
  const half = (2 * width + 2 * (height - 2)) / 2;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += counts[v]!;
    if (seen >= half) return v;
  }
  return 255;
}

/**
 * The image turned by `angle` radians about its centre (clockwise on screen for a positive angle, y being down),
 * on a canvas that holds all of it; the corners the image does not cover take its background (border median).
 */
export function rotateImage(image: GrayImage, angle: number): GrayImage {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Less a hair, so that a quarter turn's rounding error does not add a column.
  const width = Math.ceil(Math.abs(image.width * cos) + Math.abs(image.height * sin) - 1e-9);
  const height = Math.ceil(Math.abs(image.width * sin) + Math.abs(image.height * cos) - 1e-9);
  const fill = borderMedian(image);
  const data = new Uint8Array(width * height);
  const sx0 = image.width / 2;
  const sy0 = image.height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5 - width / 2;
      const py = y + 0.5 - height / 2;
      // Inverse rotation: where in the source this output pixel looks.
      const sx = cos * px + sin * py + sx0 - 0.5;
      const sy = -sin * px + cos * py + sy0 - 0.5;
      data[y * width + x] = Math.round(sampleAt(image, sx, sy, fill));
    }
  }
  return { width, height, data };
}
