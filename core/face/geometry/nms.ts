import type { FaceBox } from '../types.js';

/** A scored box, the unit of non-maximum suppression. */
export interface ScoredBox {
  box: FaceBox;
  score: number;
}

/** Intersection over union of two boxes (0 when disjoint or degenerate). */
export function iou(a: FaceBox, b: FaceBox): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression: keep the best box, drop those overlapping it above `iouThreshold`, repeat. */
export function nonMaxSuppression<T extends ScoredBox>(
  boxes: readonly T[],
  iouThreshold: number,
  maxKeep = 50,
): T[] {
  const sorted = [...boxes].sort((p, q) => q.score - p.score);
  const kept: T[] = [];
  for (const candidate of sorted) {
    if (kept.length >= maxKeep) break;
    if (kept.every((k) => iou(k.box, candidate.box) <= iouThreshold)) kept.push(candidate);
  }
  return kept;
}
