import type { FaceBox } from '../types.js';
import { nonMaxSuppression, type ScoredBox } from './nms.js';

/** Thresholds of the detector's post-processing. */
export interface DetectionDecodeOptions {
  /** Minimum face probability kept before NMS. */
  minScore: number;
  /** IoU above which a lower-scored box is suppressed. */
  iouThreshold: number;
  /** Model input size in pixels, to scale the normalised corners. */
  inputWidth: number;
  inputHeight: number;
}

/**
 * Turn the detector outputs into boxes in input pixels. fr_detect decodes its anchors inside the graph: `boxes` holds
 * normalised corners (x1, y1, x2, y2) per prior and `scores` softmaxed (background, face) pairs, so what is left is
 * thresholding, scaling and NMS.
 */
export function decodeDetections(
  scores: Float32Array,
  boxes: Float32Array,
  options: DetectionDecodeOptions,
): ScoredBox[] {
  const count = Math.min(scores.length / 2, boxes.length / 4);
  const candidates: ScoredBox[] = [];
  for (let i = 0; i < count; i++) {
    const score = scores[i * 2 + 1] ?? 0;
    if (score < options.minScore) continue;
    const x1 = (boxes[i * 4] ?? 0) * options.inputWidth;
    const y1 = (boxes[i * 4 + 1] ?? 0) * options.inputHeight;
    const x2 = (boxes[i * 4 + 2] ?? 0) * options.inputWidth;
    const y2 = (boxes[i * 4 + 3] ?? 0) * options.inputHeight;
    if (x2 <= x1 || y2 <= y1) continue;
    const box: FaceBox = { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
    candidates.push({ box, score });
  }
  return nonMaxSuppression(candidates, options.iouThreshold);
}
