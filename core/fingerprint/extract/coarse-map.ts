import { BACKGROUND, MASK_CELL, UNRELIABLE, type CoarseMask } from '../match/extra.js';
import { BLOCK } from './block-grid.js';
import type { OrientationField } from './orientation.js';

/** Cells whose blocks' mean orientation coherence is below this are print without a trustworthy direction. */
const MIN_COHERENCE = 0.45;

/**
 * Downsample the block orientation field and foreground mask to the matcher's 16 px map: each cell holds the mean
 * ridge direction (doubled-angle average of its foreground blocks) in whole degrees, UNRELIABLE where the blocks'
 * coherence is low (smudges, scars, dry patches: the flow comparison skips them), or BACKGROUND.
 */
export function coarseOrientation(
  field: OrientationField,
  mask: Uint8Array,
  width: number,
  height: number,
): CoarseMask {
  const cols = Math.ceil(width / MASK_CELL);
  const rows = Math.ceil(height / MASK_CELL);
  const c = new Float32Array(cols * rows);
  const s = new Float32Array(cols * rows);
  const n = new Uint8Array(cols * rows);
  const coh = new Float32Array(cols * rows);
  const ratio = MASK_CELL / BLOCK;
  for (let by = 0; by < field.rows; by++) {
    for (let bx = 0; bx < field.cols; bx++) {
      const b = by * field.cols + bx;
      if (!mask[b]) continue;
      const cell = ((by / ratio) | 0) * cols + ((bx / ratio) | 0);
      c[cell]! += field.cos2[b]!;
      s[cell]! += field.sin2[b]!;
      coh[cell]! += field.coherence[b]!;
      n[cell]!++;
    }
  }
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
