/**
 * FAST-9 corner detection (16-pixel Bresenham circle of radius 3, 9 contiguous brighter or darker pixels) with a
 * Harris response for ranking and 3x3 non-maximum suppression. Pure code.
 */
import type { GrayImage } from './gray-image.js';

/** A corner at integer pixel coordinates with its Harris response. */
export interface Corner {
  x: number;
  y: number;
  response: number;
}

const CIRCLE: readonly (readonly [number, number])[] = [
  [0, -3],
  [1, -3],
  [2, -2],
  [3, -1],
  [3, 0],
  [3, 1],
  [2, 2],
  [1, 3],
  [0, 3],
  [-1, 3],
  [-2, 2],
  [-3, 1],
  [-3, 0],
  [-3, -1],
  [-2, -2],
  [-1, -3],
];

function isCorner(data: Uint8Array, index: number, offsets: Int32Array, threshold: number): boolean {
  const centre = data[index]!;
  const hi = centre + threshold;
  const lo = centre - threshold;
  // Any 9-arc of the 16-circle holds pixel 0 or pixel 8: test those two first, it rejects most pixels.
  const p0 = data[index + offsets[0]!]!;
  const p8 = data[index + offsets[8]!]!;
  if (p0 <= hi && p0 >= lo && p8 <= hi && p8 >= lo) return false;
  // It also holds at least two of the four compass points.
  const p4 = data[index + offsets[4]!]!;
  const p12 = data[index + offsets[12]!]!;
  let brighter = (p0 > hi ? 1 : 0) + (p8 > hi ? 1 : 0) + (p4 > hi ? 1 : 0) + (p12 > hi ? 1 : 0);
  let darker = (p0 < lo ? 1 : 0) + (p8 < lo ? 1 : 0) + (p4 < lo ? 1 : 0) + (p12 < lo ? 1 : 0);
  if (brighter < 2 && darker < 2) return false;
  brighter = 0;
  darker = 0;
  // Walk the circle twice so arcs that wrap around index 15 -> 0 are counted.
  for (let i = 0; i < 25; i++) {
    const v = data[index + offsets[i & 15]!]!;
    if (v > hi) {
      brighter++;
      darker = 0;
    } else if (v < lo) {
      darker++;
      brighter = 0;
    } else {
      brighter = 0;
      darker = 0;
    }
    if (brighter >= 9 || darker >= 9) return true;
  }
  return false;
}

/** Harris corner response over a 7x7 window of Sobel gradients (k = 0.04). */
export function harrisResponse(image: GrayImage, x: number, y: number): number {
  const { data, width } = image;
  let a = 0;
  let b = 0;
  let c = 0;
  for (let dy = -3; dy <= 3; dy++) {
    for (let dx = -3; dx <= 3; dx++) {
      const i = (y + dy) * width + x + dx;
      const gx =
        data[i - width + 1]! +
        2 * data[i + 1]! +
        data[i + width + 1]! -
        data[i - width - 1]! -
        2 * data[i - 1]! -
        data[i + width - 1]!;
      const gy =
        data[i + width - 1]! +
        2 * data[i + width]! +
        data[i + width + 1]! -
        data[i - width - 1]! -
        2 * data[i - width]! -
        data[i - width + 1]!;
      a += gx * gx;
      b += gy * gy;
      c += gx * gy;
    }
  }
  return a * b - c * c - 0.04 * (a + b) * (a + b);
}

/** FAST-9 corners at least `border` pixels from the edges, ranked by Harris response after 3x3 NMS. */
export function detectFast(image: GrayImage, threshold: number, border: number): Corner[] {
  const { data, width, height } = image;
  const offsets = new Int32Array(16);
  CIRCLE.forEach(([dx, dy], i) => (offsets[i] = dy * width + dx));
  const b = Math.max(4, border);
  const response = new Float32Array(width * height);
  const found: number[] = [];
  for (let y = b; y < height - b; y++) {
    for (let x = b; x < width - b; x++) {
      const index = y * width + x;
      if (!isCorner(data, index, offsets, threshold)) continue;
      response[index] = Math.max(1e-6, harrisResponse(image, x, y));
      found.push(index);
    }
  }
  const corners: Corner[] = [];
  for (const index of found) {
    const r = response[index]!;
    let isMax = true;
    for (let dy = -1; dy <= 1 && isMax; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((dx !== 0 || dy !== 0) && response[index + dy * width + dx]! > r) {
          isMax = false;
          break;
        }
      }
    }
    if (isMax) corners.push({ x: index % width, y: Math.floor(index / width), response: r });
  }
  return corners;
}
