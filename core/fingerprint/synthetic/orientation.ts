import type { Prng } from './prng.js';

/** Henry classes the generator draws from. */
export type FingerClass = 'arch' | 'tented_arch' | 'left_loop' | 'right_loop' | 'whorl';

export const FINGER_CLASSES: readonly FingerClass[] = [
  'arch',
  'tented_arch',
  'left_loop',
  'right_loop',
  'whorl',
];

/** A singular point of the orientation field: a core (+1/2 index) or a delta (-1/2). */
export interface SingularPoint {
  x: number;
  y: number;
  kind: 'core' | 'delta';
}

/** Geometry of one synthetic finger: class, singular points and the elliptical contact area. */
export interface FingerShape {
  fingerClass: FingerClass;
  singularities: SingularPoint[];
  /** Centre and semi-axes of the fingertip ellipse, pixels. */
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  /** Arch curvature, only used by the arch class. */
  archBend: number;
}

/** Draw a finger shape of a random class on a `width` x `height` canvas. */
export function drawFingerShape(rng: Prng, width: number, height: number): FingerShape {
  const fingerClass = FINGER_CLASSES[rng.int(FINGER_CLASSES.length)] ?? 'arch';
  const cx = width * rng.range(0.47, 0.53);
  const cy = height * rng.range(0.5, 0.56);
  const jitter = (scale: number): number => rng.range(-scale, scale);
  const core = (x: number, y: number): SingularPoint => ({ x, y, kind: 'core' });
  const delta = (x: number, y: number): SingularPoint => ({ x, y, kind: 'delta' });
  const coreY = cy - height * rng.range(0.02, 0.1);
  let singularities: SingularPoint[] = [];
  switch (fingerClass) {
    case 'arch':
      break;
    case 'tented_arch':
      singularities = [
        core(cx + jitter(10), coreY),
        delta(cx + jitter(10), coreY + height * rng.range(0.14, 0.2)),
      ];
      break;
    case 'left_loop':
      singularities = [
        core(cx + jitter(15), coreY),
        delta(cx + width * rng.range(0.22, 0.3), coreY + height * rng.range(0.2, 0.28)),
      ];
      break;
    case 'right_loop':
      singularities = [
        core(cx + jitter(15), coreY),
        delta(cx - width * rng.range(0.22, 0.3), coreY + height * rng.range(0.2, 0.28)),
      ];
      break;
    case 'whorl': {
      const gap = height * rng.range(0.03, 0.06);
      const dy = height * rng.range(0.2, 0.26);
      singularities = [
        core(cx + jitter(8), coreY - gap),
        core(cx + jitter(8), coreY + gap),
        delta(cx - width * rng.range(0.24, 0.3), coreY + dy),
        delta(cx + width * rng.range(0.24, 0.3), coreY + dy),
      ];
      break;
    }
    default: {
      const unreachable: never = fingerClass;
      throw new Error(`Unknown finger class ${String(unreachable)}`);
    }
  }
  return {
    fingerClass,
    singularities,
    cx,
    cy,
    rx: width * rng.range(0.36, 0.42),
    ry: height * rng.range(0.42, 0.47),
    archBend: rng.range(1.6, 2.6),
  };
}

/**
 * Ridge direction (radians, [0, PI)) at a point from the zero-pole model of Sherlock and Monro: each core turns
 * the field by +1/2 of the angle around it, each delta by -1/2; arches use a smooth hump field instead.
 */
export function orientationAt(
  shape: FingerShape,
  width: number,
  height: number,
  x: number,
  y: number,
): number {
  let theta = 0;
  if (shape.singularities.length === 0) {
    const fade = Math.exp(-(((y - shape.cy) / (0.6 * height)) ** 2));
    theta = Math.atan((shape.archBend * (x - shape.cx) * fade) / width);
  } else {
    for (const s of shape.singularities) {
      const a = Math.atan2(y - s.y, x - s.x);
      theta += s.kind === 'core' ? a / 2 : -a / 2;
    }
  }
  theta %= Math.PI;
  return theta < 0 ? theta + Math.PI : theta;
}

/** `orientationAt` for every pixel, row-major. */
export function orientationField(shape: FingerShape, width: number, height: number): Float32Array {
  const field = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) field[y * width + x] = orientationAt(shape, width, height, x, y);
  }
  return field;
}

/** Soft fingertip mask in [0, 1] at a point, for an ellipse scaled by `scale` and shifted by (dx, dy). */
export function fingertipMask(shape: FingerShape, x: number, y: number, scale = 1, dx = 0, dy = 0): number {
  const u = (x - shape.cx - dx) / (shape.rx * scale);
  // The top of a fingertip is rounder than its bottom, which the crease cuts off.
  const v = (y - shape.cy - dy) / (shape.ry * scale * (y < shape.cy + dy ? 0.9 : 1.15));
  const r = Math.sqrt(u * u + v * v);
  return Math.min(1, Math.max(0, (1 - r) * 12));
}
