import type { FingerprintFeatures } from '../types.js';
import {
  BACKGROUND,
  decodeMask,
  decodePeriods,
  decodeRidgeCounts,
  type CoarseMask,
} from '../template/extra.js';
import { angleBin, edgeKey, LENGTH_BINS, lengthBin, MAX_EDGE, turnBin } from './edge-hash.js';
import { convexHull, wrapAngle } from './geometry.js';

/** Neighbours per minutia in the local descriptor. */
export const NEIGHBOURS = 8;

/** Features reshaped for matching: 500-dpi coordinates, directions in image terms (x right, y down, towards y). */
export interface PreparedPrint {
  n: number;
  x: Float64Array;
  y: Float64Array;
  dir: Float64Array;
  /** The minutiae's indices in increasing x (ties in index order), for the matcher's sweeps. */
  byX: Int32Array;
  /** Per minutia, NEIGHBOURS slots of (distance, angle of the edge relative to dir, relative direction). */
  edgeLength: Float64Array;
  edgeAngle: Float64Array;
  edgeTurn: Float64Array;
  /** Number of used slots per minutia. */
  edgeCount: Uint8Array;
  /** Per edge slot, its key in edge-hash.ts terms (quantised length, angle, turn); -1 for unused slots. */
  edgeKeys: Int32Array;
  /** Ridges crossed along each edge slot (RIDGES_UNKNOWN where not measured); absent for imported minutiae. */
  edgeRidges: Uint8Array | undefined;
  /** Where minutiae could be: the stored mask, or the convex hull of the minutiae. */
  mask: CoarseMask | undefined;
  /** Per cell of `mask`, 1 where the cell and its four neighbours are on the print (see interiorCells). */
  interior: Uint8Array | undefined;
  /** Ridge period per cell of `mask` (tenths of a pixel, PERIOD_UNKNOWN where none); absent for older or imported features. */
  period: Uint8Array | undefined;
  hull: Float64Array;
}

/**
 * Each minutia's star: its NEIGHBOURS nearest other minutiae between 6 and MAX_EDGE pixels away (very close pairs
 * are often twin artefacts; very far ones suffer most from skin distortion), nearest first. `other[i * NEIGHBOURS
 * + k]` is the k-th neighbour of i. The extractor measures ridge counts on the same stars, so both use this.
 */
export function neighbourStars(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): { count: Uint8Array; other: Int32Array } {
  const n = x.length;
  const count = new Uint8Array(n);
  const other = new Int32Array(n * NEIGHBOURS).fill(-1);
  const order: { j: number; d: number }[] = [];
  for (let i = 0; i < n; i++) {
    order.length = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const d = Math.sqrt((x[j]! - x[i]!) ** 2 + (y[j]! - y[i]!) ** 2);
      if (d >= 6 && d <= MAX_EDGE) order.push({ j, d });
    }
    order.sort((a, b) => a.d - b.d || a.j - b.j);
    count[i] = Math.min(NEIGHBOURS, order.length);
    for (let k = 0; k < count[i]!; k++) other[i * NEIGHBOURS + k] = order[k]!.j;
  }
  return { count, other };
}

/** Build the matcher's view of a feature set (cheap: O(n^2) in the minutiae count). */
export function preparePrint(features: FingerprintFeatures): PreparedPrint {
  const scale = features.dpi > 0 ? 500 / features.dpi : 1;
  const list = features.minutiae;
  const n = list.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const dir = new Float64Array(n);
  list.forEach((m, k) => {
    x[k] = m.x * scale;
    y[k] = m.y * scale;
    // ISO angles turn counter-clockwise on screen (y down): in image terms the direction is the negated angle.
    dir[k] = wrapAngle(-m.angle);
  });
  const edgeLength = new Float64Array(n * NEIGHBOURS);
  const edgeAngle = new Float64Array(n * NEIGHBOURS);
  const edgeTurn = new Float64Array(n * NEIGHBOURS);
  const edgeCount = new Uint8Array(n);
  const stars = neighbourStars(x, y);
  for (let i = 0; i < n; i++) {
    const count = stars.count[i]!;
    edgeCount[i] = count;
    for (let k = 0; k < count; k++) {
      const slot = i * NEIGHBOURS + k;
      const j = stars.other[slot]!;
      edgeLength[slot] = Math.sqrt((x[j]! - x[i]!) ** 2 + (y[j]! - y[i]!) ** 2);
      edgeAngle[slot] = wrapAngle(Math.atan2(y[j]! - y[i]!, x[j]! - x[i]!) - dir[i]!);
      edgeTurn[slot] = wrapAngle(dir[j]! - dir[i]!);
    }
  }
  const ridges = decodeRidgeCounts(features.extra, n * NEIGHBOURS);
  const mask = decodeMask(features.extra);
  const edgeKeys = new Int32Array(n * NEIGHBOURS).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < edgeCount[i]!; k++) {
      const slot = i * NEIGHBOURS + k;
      edgeKeys[slot] = edgeKey(
        Math.min(LENGTH_BINS - 1, lengthBin(edgeLength[slot]!)),
        angleBin(edgeAngle[slot]!),
        turnBin(edgeTurn[slot]!),
      );
    }
  }
  return {
    n,
    x,
    y,
    dir,
    byX: Int32Array.from({ length: n }, (_, k) => k).sort((p, q) => x[p]! - x[q]! || p - q),
    edgeLength,
    edgeAngle,
    edgeTurn,
    edgeCount,
    edgeKeys,
    edgeRidges: ridges,
    mask,
    interior: mask ? interiorCells(mask) : undefined,
    period: decodePeriods(features.extra),
    hull: convexHull(x, y),
  };
}

/**
 * 1 for the cells of the print whose four neighbours are on the print too: the extractor finds no minutiae within
 * about a cell of the print's edge, so the matcher expects none there.
 */
function interiorCells(mask: CoarseMask): Uint8Array {
  const { cols, rows, cells } = mask;
  const on = (cx: number, cy: number): boolean =>
    cx >= 0 && cy >= 0 && cx < cols && cy < rows && cells[cy * cols + cx] !== BACKGROUND;
  const out = new Uint8Array(cols * rows);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      out[cy * cols + cx] = +(
        on(cx, cy) &&
        on(cx - 1, cy) &&
        on(cx + 1, cy) &&
        on(cx, cy - 1) &&
        on(cx, cy + 1)
      );
    }
  }
  return out;
}
