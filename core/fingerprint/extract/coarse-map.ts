import { BACKGROUND, MASK_CELL, PERIOD_UNKNOWN, UNRELIABLE, type CoarseMask } from '../template/extra.js';
import { BLOCK } from './block-grid.js';
import type { OrientationField } from './orientation.js';

/** Cells whose blocks' mean orientation coherence is below this are print without a trustworthy direction. */
const MIN_COHERENCE = 0.45;

/** Columns and rows of the coarse map of a `width` x `height` (500 dpi) image. */
function coarseGrid(width: number, height: number): { cols: number; rows: number } {
  return { cols: Math.ceil(width / MASK_CELL), rows: Math.ceil(height / MASK_CELL) };
}

/**
 * Each foreground block (index in the block grid) with the coarse-map cell its centre falls in; `scale` is the block
 * grid's image enlargement against the map's 500-dpi pixels.
 */
function forEachBlockCell(
  mask: Uint8Array,
  blockCols: number,
  blockRows: number,
  grid: { cols: number; rows: number },
  scale: number,
  visit: (block: number, cell: number) => void,
): void {
  const { cols, rows } = grid;
  const cell = MASK_CELL * scale;
  for (let by = 0; by < blockRows; by++) {
    const cy = Math.min(rows - 1, Math.floor((by * BLOCK + BLOCK / 2) / cell));
    for (let bx = 0; bx < blockCols; bx++) {
      const b = by * blockCols + bx;
      const cx = Math.min(cols - 1, Math.floor((bx * BLOCK + BLOCK / 2) / cell));
      if (mask[b]) visit(b, cy * cols + cx);
    }
  }
}

/**
 * Downsample the block orientation field and foreground mask to the matcher's 16 px map: each cell holds the mean
 * ridge direction (doubled-angle average of its foreground blocks) in whole degrees, UNRELIABLE where the blocks'
 * coherence is low (smudges, scars, dry patches: the flow comparison skips them), or BACKGROUND. `width` and
 * `height` are the 500-dpi image's; `scale`, the enlargement of the image the field was measured on.
 */
export function coarseOrientation(
  field: OrientationField,
  mask: Uint8Array,
  width: number,
  height: number,
  scale = 1,
): CoarseMask {
  const { cols, rows } = coarseGrid(width, height);
  const c = new Float32Array(cols * rows);
  const s = new Float32Array(cols * rows);
  const n = new Uint8Array(cols * rows);
  const coh = new Float32Array(cols * rows);
  forEachBlockCell(mask, field.cols, field.rows, { cols, rows }, scale, (b, cell) => {
    c[cell]! += field.cos2[b]!;
    s[cell]! += field.sin2[b]!;
    coh[cell]! += field.coherence[b]!;
    n[cell]!++;
  });
  const cells = new Uint8Array(cols * rows).fill(BACKGROUND);
  for (let k = 0; k < cells.length; k++) {
    if (!n[k]) continue;
    if (coh[k]! / n[k]! < MIN_COHERENCE) {
      cells[k] = UNRELIABLE;
      continue;
    }
    let t = (0.5 * Math.atan2(s[k]!, c[k]!) * 180) / Math.PI;
    if (t < 0) t += 180;
    cells[k] = Math.round(t) % 180;
  }
  return { cols, rows, cells };
}

/**
 * The block ridge periods (estimatePeriod) averaged over each 16 px cell of the coarse map, in tenths of a pixel
 * (PERIOD_UNKNOWN where the cell has no print block). The matcher compares the two prints' periods under an
 * alignment: ridge spacing is a property of the finger that pressure and distortion change only a little. `scale`
 * is the enlargement of the image the periods were measured on (the map holds 500-dpi pixels).
 */
export function coarsePeriod(
  period: Float32Array,
  mask: Uint8Array,
  blockCols: number,
  blockRows: number,
  width: number,
  height: number,
  scale = 1,
): Uint8Array {
  const { cols, rows } = coarseGrid(width, height);
  const sum = new Float32Array(cols * rows);
  const n = new Uint8Array(cols * rows);
  forEachBlockCell(mask, blockCols, blockRows, { cols, rows }, scale, (b, cell) => {
    if (!(period[b]! > 0)) return;
    // In 500-dpi pixels, whatever the enlargement the blocks were measured at.
    sum[cell]! += period[b]! / scale;
    n[cell]!++;
  });
  return Uint8Array.from(sum, (total, cell) => {
    const count = n[cell] ?? 0;
    return count > 0 ? Math.max(1, Math.min(255, Math.round((10 * total) / count))) : PERIOD_UNKNOWN;
  });
}
