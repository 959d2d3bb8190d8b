import { BACKGROUND, cellIndex, MASK_CELL, PERIOD_UNKNOWN, UNRELIABLE } from './extra.js';
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

/** What the two prints' coarse maps say under an alignment. */
export interface MapAgreement {
  /** Mean cos(2 x direction difference) over the cells compared, in [-1, 1] (1 when there are none). */
  agreement: number;
  /** Cells whose directions were compared. */
  cells: number;
  /**
   * Mean relative difference of the ridge periods, (A - B) / mean of the two, signed, over the compared cells where
   * both prints have a period; 0 when there are none.
   */
  periodShift: number;
  /** Cells whose periods were compared. */
  periodCells: number;
}

/**
 * Agreement of the two ridge-flow maps under the alignment: mean cos(2 x angle difference) over A's cells that land
 * on B's print, in [-1, 1]; impostors aligned by a few chance minutiae rarely agree on the flow around them. Over
 * the same cells, the mean relative difference of the ridge periods (when both prints carry a period map): the
 * spacing of the ridges belongs to the finger, and a mean over the overlap is steadier than any one cell.
 */
export function flowAgreement(a: PreparedPrint, b: PreparedPrint, t: Rigid): MapAgreement {
  const ma = a.mask;
  const mb = b.mask;
  if (!ma || !mb) return { agreement: 1, cells: 0, periodShift: 0, periodCells: 0 };
  const pa = a.period;
  const pb = b.period;
  const c = Math.cos(t.angle);
  const s = Math.sin(t.angle);
  // cos(2(va - vb + turn)) expanded, with the integer-degree part from a table: no trigonometry per cell.
  const ct = Math.cos(2 * t.angle);
  const st = Math.sin(2 * t.angle);
  let sum = 0;
  let cells = 0;
  let shift = 0;
  let periodCells = 0;
  for (let cy = 0; cy < ma.rows; cy++) {
    for (let cx = 0; cx < ma.cols; cx++) {
      const ka = cy * ma.cols + cx;
      const va = ma.cells[ka]!;
      if (va === BACKGROUND) continue;
      const x = (cx + 0.5) * MASK_CELL;
      const y = (cy + 0.5) * MASK_CELL;
      const kb = cellIndex(mb, c * x - s * y + t.tx, s * x + c * y + t.ty);
      if (kb < 0) continue;
      const vb = mb.cells[kb]!;
      if (vb === BACKGROUND) continue;
      if (pa && pb) {
        const qa = pa[ka]!;
        const qb = pb[kb]!;
        if (qa !== PERIOD_UNKNOWN && qb !== PERIOD_UNKNOWN) {
          shift += (2 * (qa - qb)) / (qa + qb);
          periodCells++;
        }
      }
      if (va === UNRELIABLE || vb === UNRELIABLE) continue;
      const d = va - vb + 180;
      sum += COS2[d]! * ct - SIN2[d]! * st;
      cells++;
    }
  }
  return {
    agreement: cells > 0 ? sum / cells : 1,
    cells,
    periodShift: periodCells > 0 ? shift / periodCells : 0,
    periodCells,
  };
}
