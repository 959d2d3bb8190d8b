import type { FingerprintFeatures } from '../types.js';
import { decodeMask, type CoarseMask } from './extra.js';
import { angleBin, edgeKey, lengthBin, turnBin } from './edge-hash.js';
import { convexHull, wrapAngle } from './geometry.js';

/** Neighbours per minutia in the local descriptor. */
export const NEIGHBOURS = 8;

/** Features reshaped for matching: 500-dpi coordinates, directions in image terms (x right, y down, towards y). */
export interface PreparedPrint {
  n: number;
  x: Float64Array;
  y: Float64Array;
  dir: Float64Array;
  /** Per minutia, NEIGHBOURS slots of (distance, angle of the edge relative to dir, relative direction). */
  edgeLength: Float64Array;
  edgeAngle: Float64Array;
  edgeTurn: Float64Array;
  /** Number of used slots per minutia. */
  edgeCount: Uint8Array;
  /** Edge slots bucketed by quantised (length, angle, turn) for fast lookup; see edge-hash.ts. */
  edgeHash: Map<number, number[]>;
  /** Where minutiae could be: the stored mask, or the convex hull of the minutiae. */
  mask: CoarseMask | undefined;
  hull: Float64Array;
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
  const order: { j: number; d: number }[] = [];
  for (let i = 0; i < n; i++) {
    order.length = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const d = Math.sqrt((x[j]! - x[i]!) ** 2 + (y[j]! - y[i]!) ** 2);
      // Very close pairs are often twin artefacts; very far ones suffer most from skin distortion.
      if (d >= 6 && d <= 160) order.push({ j, d });
    }
    order.sort((a, b) => a.d - b.d);
    const count = Math.min(NEIGHBOURS, order.length);
    edgeCount[i] = count;
    for (let k = 0; k < count; k++) {
      const { j, d } = order[k]!;
      const slot = i * NEIGHBOURS + k;
      edgeLength[slot] = d;
      edgeAngle[slot] = wrapAngle(Math.atan2(y[j]! - y[i]!, x[j]! - x[i]!) - dir[i]!);
      edgeTurn[slot] = wrapAngle(dir[j]! - dir[i]!);
    }
  }
  const edgeHash = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < edgeCount[i]!; k++) {
      const slot = i * NEIGHBOURS + k;
      const key = edgeKey(lengthBin(edgeLength[slot]!), angleBin(edgeAngle[slot]!), turnBin(edgeTurn[slot]!));
      const bucket = edgeHash.get(key);
      if (bucket) bucket.push(slot);
      else edgeHash.set(key, [slot]);
    }
  }
  return { n, x, y, dir, edgeLength, edgeAngle, edgeTurn, edgeCount, edgeHash, mask: decodeMask(features.extra), hull: convexHull(x, y) };
}
