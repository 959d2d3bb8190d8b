import { BACKGROUND, cellIndex, MASK_CELL, PERIOD_UNKNOWN, UNRELIABLE } from '../template/extra.js';
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
 * Skin twisted by pressure turns the ridges of whole regions against a rigid alignment: the direction differences
 * then vary smoothly across the print (10-60 degrees in FVC2004_DB1's distorted impressions, around a central
 * region that agrees), where another finger's differ from cell to cell. Each cell's difference is measured against
 * the mean difference of the compared cells within TWIST_RADIUS cells of it (a 9 x 9 window, 144 px), taken as the
 * local turn of the skin and capped at TWIST_LIMIT, so another finger's cell-to-cell disagreement is not excused.
 */
const TWIST_RADIUS = 4;
const TWIST_LIMIT = (25 * Math.PI) / 180;
const TWIST_COS = Math.cos(2 * TWIST_LIMIT);
const TWIST_SIN = Math.sin(2 * TWIST_LIMIT);

/**
 * Scratch for one alignment at a time (the matcher is synchronous): the compared cells (column, row, and the cos
 * and sin of twice their direction difference) and the summed-area tables over their bounding box.
 */
let comparedX = new Int32Array(0);
let comparedY = new Int32Array(0);
let comparedC = new Float64Array(0);
let comparedS = new Float64Array(0);
let tableC = new Float64Array(0);
let tableS = new Float64Array(0);

/** What the two prints' coarse maps say under an alignment. */
export interface MapAgreement {
  /**
   * Mean cos(2 x direction difference) over the cells compared, each difference taken against the local turn of
   * the skin around it (TWIST_RADIUS, TWIST_LIMIT); in [-1, 1], 1 when there are none. Computed when called (most
   * alignments cannot beat the best one whatever their flow), and only until the next flowAgreement call: it reads
   * that call's scratch arrays.
   */
  agreement: () => number;
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
 * on B's print, in [-1, 1], where each cell's difference counts net of the smooth local turn of the skin around it
 * (see TWIST_RADIUS); impostors aligned by a few chance minutiae rarely agree on the flow around them. Over the same
 * cells, the mean relative difference of the ridge periods (when both prints carry a period map): the spacing of
 * the ridges belongs to the finger, and a mean over the overlap is steadier than any one cell.
 */
export function flowAgreement(a: PreparedPrint, b: PreparedPrint, t: Rigid): MapAgreement {
  const ma = a.mask;
  const mb = b.mask;
  if (!ma || !mb) return { agreement: () => 1, cells: 0, periodShift: 0, periodCells: 0 };
  const pa = a.period;
  const pb = b.period;
  const c = Math.cos(t.angle);
  const s = Math.sin(t.angle);
  // cos and sin of 2(va - vb + turn) expanded, with the integer-degree part from a table: no trigonometry per cell.
  const ct = Math.cos(2 * t.angle);
  const st = Math.sin(2 * t.angle);
  const size = ma.rows * ma.cols;
  if (comparedC.length < size) {
    comparedX = new Int32Array(size);
    comparedY = new Int32Array(size);
    comparedC = new Float64Array(size);
    comparedS = new Float64Array(size);
  }
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
      // cos and sin of 2 x (va - vb + turn).
      const d = va - vb + 180;
      comparedX[cells] = cx;
      comparedY[cells] = cy;
      comparedC[cells] = COS2[d]! * ct - SIN2[d]! * st;
      comparedS[cells] = SIN2[d]! * ct + COS2[d]! * st;
      cells++;
    }
  }
  return {
    agreement: cells > 0 ? () => twistedAgreement(cells) : () => 1,
    cells,
    periodShift: periodCells > 0 ? shift / periodCells : 0,
    periodCells,
  };
}

/**
 * Summed-area tables of the compared cells' doubled-angle differences (cos and sin) over their bounding box, row 0
 * and column 0 zero, from the scratch arrays of the last flowAgreement call. Returns the box's origin and size.
 */
function windowTables(cells: number): { x0: number; y0: number; cols: number; rows: number } {
  let x0 = Infinity;
  let x1 = -1;
  let y0 = Infinity;
  let y1 = -1;
  for (let m = 0; m < cells; m++) {
    x0 = Math.min(x0, comparedX[m]!);
    x1 = Math.max(x1, comparedX[m]!);
    y0 = Math.min(y0, comparedY[m]!);
    y1 = Math.max(y1, comparedY[m]!);
  }
  const cols = x1 - x0 + 1;
  const rows = y1 - y0 + 1;
  const w = cols + 1;
  const size = (rows + 1) * w;
  if (tableC.length < size) {
    tableC = new Float64Array(size);
    tableS = new Float64Array(size);
  }
  tableC.fill(0, 0, size);
  tableS.fill(0, 0, size);
  for (let m = 0; m < cells; m++) {
    const q = (comparedY[m]! - y0 + 1) * w + comparedX[m]! - x0 + 1;
    tableC[q] = comparedC[m]!;
    tableS[q] = comparedS[m]!;
  }
  for (let y = 1; y <= rows; y++) {
    let runC = 0;
    let runS = 0;
    for (let x = 1; x <= cols; x++) {
      const q = y * w + x;
      runC += tableC[q]!;
      runS += tableS[q]!;
      tableC[q] = tableC[q - w]! + runC;
      tableS[q] = tableS[q - w]! + runS;
    }
  }
  return { x0, y0, cols, rows };
}

/**
 * For compared cell m, the unit vector (cos, sin) of twice the local turn: the direction of the summed doubled-angle
 * differences within TWIST_RADIUS cells, capped at TWIST_LIMIT; [1, 0] when they cancel out.
 */
function turnVector(
  m: number,
  box: { x0: number; y0: number; cols: number; rows: number },
): [number, number] {
  const w = box.cols + 1;
  const cy = comparedY[m]! - box.y0;
  const cx = comparedX[m]! - box.x0;
  const top = Math.max(0, cy - TWIST_RADIUS) * w;
  const bottom = Math.min(box.rows, cy + TWIST_RADIUS + 1) * w;
  const left = Math.max(0, cx - TWIST_RADIUS);
  const right = Math.min(box.cols, cx + TWIST_RADIUS + 1);
  const uc = tableC[bottom + right]! - tableC[top + right]! - tableC[bottom + left]! + tableC[top + left]!;
  const us = tableS[bottom + right]! - tableS[top + right]! - tableS[bottom + left]! + tableS[top + left]!;
  const length = Math.sqrt(uc * uc + us * us);
  if (length === 0) return [1, 0];
  if (uc / length < TWIST_COS) return [TWIST_COS, us < 0 ? -TWIST_SIN : TWIST_SIN];
  return [uc / length, us / length];
}

/**
 * The mean of cos(2 x (difference - local turn)) over the `cells` compared cells held in the scratch arrays.
 * cos(2 x (d - turn)) is the dot product of d's unit vector with the turn's: no trigonometry per cell.
 */
function twistedAgreement(cells: number): number {
  const box = windowTables(cells);
  let sum = 0;
  for (let m = 0; m < cells; m++) {
    const [uc, us] = turnVector(m, box);
    sum += comparedC[m]! * uc + comparedS[m]! * us;
  }
  return sum / cells;
}

/**
 * The skin's local turn under the alignment at each of A's minutiae (radians, to add to the direction of A's ridges
 * carried into B; 0 where the maps were not compared), or undefined when the prints carry no maps to compare.
 */
export function localTurns(a: PreparedPrint, b: PreparedPrint, t: Rigid): Float64Array | undefined {
  const flow = flowAgreement(a, b, t);
  const ma = a.mask;
  if (!ma || flow.cells < 4) return undefined;
  const box = windowTables(flow.cells);
  const slot = new Int32Array(ma.rows * ma.cols).fill(-1);
  for (let m = 0; m < flow.cells; m++) slot[comparedY[m]! * ma.cols + comparedX[m]!] = m;
  const turns = new Float64Array(a.n);
  for (let k = 0; k < a.n; k++) {
    const cell = cellIndex(ma, a.x[k]!, a.y[k]!);
    const m = cell >= 0 ? slot[cell]! : -1;
    if (m < 0) continue;
    const [uc, us] = turnVector(m, box);
    // The differences are A's direction (turned by the alignment) minus B's: B's ridges run turned back by it.
    turns[k] = -0.5 * Math.atan2(us, uc);
  }
  return turns;
}
