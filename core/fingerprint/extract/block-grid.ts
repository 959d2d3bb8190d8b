/** Side of the square blocks in which orientation, frequency and the foreground mask are estimated (pixels). */
export const BLOCK = 8;

/** A coarse grid of values, one per BLOCK x BLOCK block, rows top to bottom. */
export interface BlockGrid {
  cols: number;
  rows: number;
  data: Float32Array;
}

/** An empty grid covering an image of the given size. */
export function createGrid(width: number, height: number): BlockGrid {
  const cols = Math.ceil(width / BLOCK);
  const rows = Math.ceil(height / BLOCK);
  return { cols, rows, data: new Float32Array(cols * rows) };
}

/**
 * Sum of each cell's (2r+1)x(2r+1) neighbourhood, clipped at the grid edges, optionally weighted by `mask`
 * (cells where mask is 0 contribute nothing). Used to smooth block statistics.
 */
export function boxSum(
  values: Float32Array,
  cols: number,
  rows: number,
  r: number,
  mask?: Uint8Array,
): Float32Array {
  const rowPass = new Float32Array(values.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let k = Math.max(0, x - r); k <= Math.min(cols - 1, x + r); k++) {
        const i = y * cols + k;
        if (!mask || mask[i]) s += values[i]!;
      }
      rowPass[y * cols + x] = s;
    }
  }
  const out = new Float32Array(values.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let k = Math.max(0, y - r); k <= Math.min(rows - 1, y + r); k++) s += rowPass[k * cols + x]!;
      out[y * cols + x] = s;
    }
  }
  return out;
}

/** Value of a grid at pixel (x, y), bilinear between block centres. */
export function sampleGrid(values: Float32Array, cols: number, rows: number, x: number, y: number): number {
  const gx = Math.min(cols - 1, Math.max(0, x / BLOCK - 0.5));
  const gy = Math.min(rows - 1, Math.max(0, y / BLOCK - 0.5));
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const x1 = Math.min(cols - 1, x0 + 1);
  const y1 = Math.min(rows - 1, y0 + 1);
  const fx = gx - x0;
  const fy = gy - y0;
  const a = values[y0 * cols + x0]!;
  const b = values[y0 * cols + x1]!;
  const c = values[y1 * cols + x0]!;
  const d = values[y1 * cols + x1]!;
  return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
}
