import type { FingerprintFeatures } from '../types.js';
import { decodeMask, type CoarseMask } from './extra.js';
import { angleBin, edgeKey, KEY_COUNT, LENGTH_BINS, lengthBin, MAX_EDGE, turnBin } from './edge-hash.js';
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
  /**
   * Edge slots bucketed by quantised (length, angle, turn), see edge-hash.ts: the slots of key k are
   * bucketSlots[bucketStart[k] .. bucketStart[k + 1]).
   */
  bucketStart: Int32Array;
  bucketSlots: Int32Array;
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
      if (d >= 6 && d <= MAX_EDGE) order.push({ j, d });
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
  const { bucketStart, bucketSlots } = bucketEdges(edgeLength, edgeAngle, edgeTurn, edgeCount);
  return {
    n,
    x,
    y,
    dir,
    edgeLength,
    edgeAngle,
    edgeTurn,
    edgeCount,
    bucketStart,
    bucketSlots,
    mask: decodeMask(features.extra),
    hull: convexHull(x, y),
  };
}

/** Counting sort of the edge slots by key: a flat bucket index, cheaper to probe than a Map. */
function bucketEdges(
  edgeLength: Float64Array,
  edgeAngle: Float64Array,
  edgeTurn: Float64Array,
  edgeCount: Uint8Array,
): { bucketStart: Int32Array; bucketSlots: Int32Array } {
  const keys: number[] = [];
  const slots: number[] = [];
  for (let i = 0; i < edgeCount.length; i++) {
    for (let k = 0; k < edgeCount[i]!; k++) {
      const slot = i * NEIGHBOURS + k;
      keys.push(
        edgeKey(
          Math.min(LENGTH_BINS - 1, lengthBin(edgeLength[slot]!)),
          angleBin(edgeAngle[slot]!),
          turnBin(edgeTurn[slot]!),
        ),
      );
      slots.push(slot);
    }
  }
  const bucketStart = new Int32Array(KEY_COUNT + 1);
  for (const key of keys) bucketStart[key + 1]!++;
  for (let k = 0; k < KEY_COUNT; k++) bucketStart[k + 1]! += bucketStart[k]!;
  const fill = bucketStart.slice(0, KEY_COUNT);
  const bucketSlots = new Int32Array(slots.length);
  keys.forEach((key, m) => {
    bucketSlots[fill[key]!++] = slots[m]!;
  });
  return { bucketStart, bucketSlots };
}
