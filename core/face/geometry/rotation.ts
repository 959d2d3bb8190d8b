import type { FaceBox, Point } from '../types.js';

/** Quarter-turn rotations tried on ID cards photographed sideways or upside down. */
export type Rotation = 0 | 90 | 180 | 270;

/**
 * Map a point of an image rotated clockwise by `rotation` back to the unrotated image of size `width x height`
 * (continuous pixel coordinates, so pixel edges map to pixel edges).
 */
export function unrotatePoint(p: Point, rotation: Rotation, width: number, height: number): Point {
  switch (rotation) {
    case 0:
      return [p[0], p[1]];
    case 90:
      return [p[1], height - p[0]];
    case 180:
      return [width - p[0], height - p[1]];
    case 270:
      return [width - p[1], p[0]];
  }
}

/** Map an axis-aligned box of the rotated image back to the unrotated image. */
export function unrotateBox(box: FaceBox, rotation: Rotation, width: number, height: number): FaceBox {
  const a = unrotatePoint([box.x, box.y], rotation, width, height);
  const b = unrotatePoint([box.x + box.width, box.y + box.height], rotation, width, height);
  const x = Math.min(a[0], b[0]);
  const y = Math.min(a[1], b[1]);
  return { x, y, width: Math.abs(a[0] - b[0]), height: Math.abs(a[1] - b[1]) };
}

/** A vector of the upright (rotated) frame expressed in the unrotated image (the linear part of `unrotatePoint`). */
export function unrotateVector(v: Point, rotation: Rotation): Point {
  switch (rotation) {
    case 0:
      return [v[0], v[1]];
    case 90:
      return [v[1], -v[0]];
    case 180:
      return [-v[0], -v[1]];
    case 270:
      return [-v[1], v[0]];
  }
}
