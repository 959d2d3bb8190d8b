import type { FaceBox, Point } from '../types.js';

/**
 * True when five points look like an upright face: eyes left-to-right above the nose, nose above the mouth.
 * A face found in a wrongly rotated card image (e.g. upside down) fails this and the next rotation is tried.
 */
export function looksUpright(five: readonly Point[]): boolean {
  const [le, re, nose, lm, rm] = five;
  if (!le || !re || !nose || !lm || !rm) return false;
  const eyeY = (le[1] + re[1]) / 2;
  const mouthY = (lm[1] + rm[1]) / 2;
  return le[0] < re[0] && lm[0] < rm[0] && eyeY < nose[1] && nose[1] < mouthY;
}

/** A square of side `scale * side` centred on the box, where side is the box height (as the landmark model expects). */
export function squareAround(box: FaceBox, scale: number, side = box.height): FaceBox {
  const s = side * scale;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return { x: cx - s / 2, y: cy - s / 2, width: s, height: s };
}

/**
 * The liveness crop of the package: the box height squared, scaled by `scale` about its centre but never past the
 * image (the scale shrinks to fit, then the square shifts inside), so the model sees the face with its context.
 */
export function livenessRect(box: FaceBox, width: number, height: number, scale: number): FaceBox {
  const side0 = Math.max(box.width, box.height);
  const s = Math.min((height - 1) / side0, (width - 1) / side0, scale);
  const side = side0 * s;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let x = cx - side / 2;
  let y = cy - side / 2;
  x = Math.min(Math.max(0, x), width - side);
  y = Math.min(Math.max(0, y), height - side);
  const ix = Math.max(0, Math.round(x));
  const iy = Math.max(0, Math.round(y));
  const iside = Math.max(1, Math.min(Math.round(side), width - ix, height - iy));
  return { x: ix, y: iy, width: iside, height: iside };
}

/** Box area. */
export function area(box: FaceBox): number {
  return box.width * box.height;
}
