import { cellAt, MASK_CELL, UNRELIABLE } from './extra.js';
import type { PreparedPrint } from './prepare.js';

/** A rigid transform from print A's frame to print B's: rotate by `angle` about the origin, then translate. */
export interface Rigid {
  angle: number;
  tx: number;
  ty: number;
}

/** cos and sin of twice (d - 180) degrees, for integer d in [0, 360]. */
const COS2 = Float64Array.from({ length: 361 }, (_, d) => Math.cos(((d - 180) * Math.PI) / 90));
const SIN2 = Float64Array.from({ length: 361 }, (_, d) => Math.sin(((d - 180) * Math.PI) / 90));

/**
 * Agreement of the two ridge-flow maps under the alignment: mean cos(2 x angle difference) over A's cells that land
 * on B's print, in [-1, 1]; impostors aligned by a few chance minutiae rarely agree on the flow around them.
 */
export function flowAgreement(
  a: PreparedPrint,
  b: PreparedPrint,
  t: Rigid,
): { agreement: number; cells: number } {
  const ma = a.mask;
  const mb = b.mask;
  if (!ma || !mb) return { agreement: 1, cells: 0 };
  const c = Math.cos(t.angle);
  const s = Math.sin(t.angle);
  // cos(2(va - vb + turn)) expanded, with the integer-degree part from a table: no trigonometry per cell.
  const ct = Math.cos(2 * t.angle);
  const st = Math.sin(2 * t.angle);
  let sum = 0;
  let cells = 0;
  for (let cy = 0; cy < ma.rows; cy++) {
    for (let cx = 0; cx < ma.cols; cx++) {
      const va = ma.cells[cy * ma.cols + cx]!;
      if (va >= UNRELIABLE) continue;
      const x = (cx + 0.5) * MASK_CELL;
      const y = (cy + 0.5) * MASK_CELL;
      const vb = cellAt(mb, c * x - s * y + t.tx, s * x + c * y + t.ty);
      if (vb >= UNRELIABLE) continue;
      const d = va - vb + 180;
      sum += COS2[d]! * ct - SIN2[d]! * st;
      cells++;
    }
  }
  return { agreement: cells > 0 ? sum / cells : 1, cells };
}
