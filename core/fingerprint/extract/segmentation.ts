import { BLOCK, boxSum } from './block-grid.js';
import type { FloatImage } from './resample.js';

/** Foreground blocks (1) of the print, and each block's distance to the background in blocks. */
export interface ForegroundMask {
  cols: number;
  rows: number;
  mask: Uint8Array;
  /** Chessboard distance, in blocks, to the nearest background block or the image edge. */
  depth: Uint8Array;
}

/**
 * Grey-level variance below which a block holds one grey level: under the 0.015 of a single pixel one level off. A
 * sensor's own background, however smooth, always varies more (FVC2004_DB4's and FCJ2020's reach 0.1-1).
 */
const FLAT_VARIANCE = 0.01;

/**
 * Segment the print from the background by local contrast: the standard deviation over 24 px windows against a
 * threshold relative to the image's own contrast (so dry, wet and capacitive prints all work), then majority
 * smoothing, the largest component only, and holes filled.
 */
export function segment(image: FloatImage, energy: Float32Array): ForegroundMask {
  const { width, height, data } = image;
  const cols = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  const sum = new Float32Array(cols * rows);
  const sq = new Float32Array(cols * rows);
  const count = new Float32Array(cols * rows);
  // Block by block along each row, in float32 (Math.fround) as the Float32Array cells summed pixel by pixel.
  for (let y = 0; y < height; y++) {
    const by = ((y / BLOCK) | 0) * cols;
    for (let bx = 0; bx < cols; bx++) {
      const b = by + bx;
      const x1 = Math.min(width, (bx + 1) * BLOCK);
      let s1 = sum[b]!;
      let s2 = sq[b]!;
      for (let i = y * width + bx * BLOCK, end = y * width + x1; i < end; i++) {
        const v = data[i]!;
        s1 = Math.fround(s1 + v);
        s2 = Math.fround(s2 + v * v);
      }
      sum[b] = s1;
      sq[b] = s2;
      count[b]! += x1 - bx * BLOCK;
    }
  }
  const s = boxSum(sum, cols, rows, 1);
  const q = boxSum(sq, cols, rows, 1);
  const n = boxSum(count, cols, rows, 1);
  const e = boxSum(energy, cols, rows, 1);
  const score = new Float32Array(cols * rows);
  for (let b = 0; b < score.length; b++) {
    const mean = s[b]! / n[b]!;
    const std = Math.sqrt(Math.max(0, q[b]! / n[b]! - mean * mean));
    // Contrast and gradient energy together: flat smudges have contrast but little ridge structure.
    score[b] = Math.sqrt(std * Math.sqrt(e[b]! / 9));
  }
  const sorted = score.slice().sort();
  const high = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const threshold = high * 0.35;
  let mask: Uint8Array = new Uint8Array(cols * rows);
  for (let b = 0; b < mask.length; b++) mask[b] = score[b]! > threshold ? 1 : 0;
  for (let pass = 0; pass < 2; pass++) mask = majority(mask, cols, rows);
  mask = largestComponent(mask, cols, rows);
  fillHoles(mask, cols, rows);
  // A block of one mid grey level holds no print: padding around a turned or letterboxed image (a sensor's noise
  // never gives one; its flat patches are saturated, at black or white). It and the blocks touching it (part padding,
  // part print) leave the mask, so that the padding bounds the print as the image edge does: the ridges cut there
  // give no endings.
  const flat = new Uint8Array(mask.length);
  for (let b = 0; b < mask.length; b++) {
    const mean = sum[b]! / count[b]!;
    flat[b] = +(sq[b]! / count[b]! - mean * mean < FLAT_VARIANCE && mean > 2 && mean < 253);
  }
  const nearFlat = boxSum(Float32Array.from(flat), cols, rows, 1);
  for (let b = 0; b < mask.length; b++) if (nearFlat[b]! > 0) mask[b] = 0;
  return { cols, rows, mask, depth: chessboardDepth(mask, cols, rows, width, height) };
}

function majority(mask: Uint8Array, cols: number, rows: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let on = 0;
      let all = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || xx < 0 || yy >= rows || xx >= cols) continue;
          all++;
          on += mask[yy * cols + xx]!;
        }
      }
      out[y * cols + x] = on * 2 > all ? 1 : 0;
    }
  }
  return out;
}

/** Label 4-connected components of cells equal to `value`; returns labels (0 = other) and sizes. */
function components(
  mask: Uint8Array,
  cols: number,
  rows: number,
  value: number,
): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(mask.length);
  const sizes: number[] = [0];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== value || labels[start] !== 0) continue;
    const label = sizes.length;
    sizes.push(0);
    labels[start] = label;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      sizes[label]!++;
      const x = i % cols;
      const y = (i / cols) | 0;
      const next = [
        x > 0 ? i - 1 : -1,
        x < cols - 1 ? i + 1 : -1,
        y > 0 ? i - cols : -1,
        y < rows - 1 ? i + cols : -1,
      ];
      for (const j of next) {
        if (j >= 0 && mask[j] === value && labels[j] === 0) {
          labels[j] = label;
          stack.push(j);
        }
      }
    }
  }
  return { labels, sizes };
}

function largestComponent(mask: Uint8Array, cols: number, rows: number): Uint8Array {
  const { labels, sizes } = components(mask, cols, rows, 1);
  let best = 0;
  for (let l = 1; l < sizes.length; l++) if (sizes[l]! > (sizes[best] ?? 0)) best = l;
  const out = new Uint8Array(mask.length);
  if (best === 0) return out;
  for (let i = 0; i < mask.length; i++) out[i] = labels[i] === best ? 1 : 0;
  return out;
}

function fillHoles(mask: Uint8Array, cols: number, rows: number): void {
  const { labels, sizes } = components(mask, cols, rows, 0);
  const touches = new Uint8Array(sizes.length);
  for (let x = 0; x < cols; x++) {
    touches[labels[x]!] = 1;
    touches[labels[(rows - 1) * cols + x]!] = 1;
  }
  for (let y = 0; y < rows; y++) {
    touches[labels[y * cols]!] = 1;
    touches[labels[y * cols + cols - 1]!] = 1;
  }
  for (let i = 0; i < mask.length; i++) if (mask[i] === 0 && !touches[labels[i]!]) mask[i] = 1;
}

/**
 * Chessboard distance in blocks from each foreground block to the background, with the outside of the image as
 * background. The image edge counts in whole blocks of pixels: a block ending less than a block from the right or
 * bottom edge is as near it as the last one, whatever part of the last block the image fills.
 */
function chessboardDepth(
  mask: Uint8Array,
  cols: number,
  rows: number,
  width: number,
  height: number,
): Uint8Array {
  const depth = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) depth[i] = mask[i] ? 255 : 0;
  const toEdge = (cell: number, size: number): number =>
    1 + Math.floor(Math.max(0, Math.min(cell * BLOCK, size - (cell + 1) * BLOCK)) / BLOCK);
  // Two raster passes of the chessboard distance transform.
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (!depth[i]) continue;
      let d = Math.min(toEdge(x, width), toEdge(y, height));
      if (x > 0) d = Math.min(d, depth[i - 1]! + 1);
      if (y > 0)
        d = Math.min(
          d,
          depth[i - cols]! + 1,
          x > 0 ? depth[i - cols - 1]! + 1 : 255,
          x < cols - 1 ? depth[i - cols + 1]! + 1 : 255,
        );
      depth[i] = d;
    }
  }
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = cols - 1; x >= 0; x--) {
      const i = y * cols + x;
      if (!depth[i]) continue;
      let d = depth[i];
      if (x < cols - 1) d = Math.min(d, depth[i + 1]! + 1);
      if (y < rows - 1)
        d = Math.min(
          d,
          depth[i + cols]! + 1,
          x > 0 ? depth[i + cols - 1]! + 1 : 255,
          x < cols - 1 ? depth[i + cols + 1]! + 1 : 255,
        );
      depth[i] = d;
    }
  }
  return depth;
}
