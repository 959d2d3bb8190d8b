/**
 * Plane homographies: least-squares DLT with Hartley normalisation (h33 = 1), point projection and sanity
 * checks of the projected outline. Pure code.
 */

/** Row-major 3x3 matrix. */
export type Homography = Float64Array;

/** Point pairs as flat [x, y, ...] arrays of equal length. */
export interface Correspondences {
  from: ArrayLike<number>;
  to: ArrayLike<number>;
}

/** Solve A x = b (n x n, row-major) by Gaussian elimination with partial pivoting; null when singular. */
export function solveLinear(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(m[r * n + col]!) > Math.abs(m[pivot * n + col]!)) pivot = r;
    if (Math.abs(m[pivot * n + col]!) < 1e-12) return null;
    if (pivot !== col) {
      for (let c = 0; c < n; c++) [m[col * n + c], m[pivot * n + c]] = [m[pivot * n + c]!, m[col * n + c]!];
      [x[col], x[pivot]] = [x[pivot]!, x[col]!];
    }
    for (let r = col + 1; r < n; r++) {
      const f = m[r * n + col]! / m[col * n + col]!;
      if (f === 0) continue;
      for (let c = col; c < n; c++) m[r * n + c]! -= f * m[col * n + c]!;
      x[r]! -= f * x[col]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let c = r + 1; c < n; c++) s -= m[r * n + c]! * x[c]!;
    x[r] = s / m[r * n + r]!;
  }
  return x;
}

function normaliser(points: ArrayLike<number>, indices: ArrayLike<number>): [number, number, number] {
  let cx = 0;
  let cy = 0;
  for (let k = 0; k < indices.length; k++) {
    cx += points[indices[k]! * 2]!;
    cy += points[indices[k]! * 2 + 1]!;
  }
  cx /= indices.length;
  cy /= indices.length;
  let spread = 0;
  for (let k = 0; k < indices.length; k++)
    spread += Math.hypot(points[indices[k]! * 2]! - cx, points[indices[k]! * 2 + 1]! - cy);
  spread /= indices.length;
  return [cx, cy, spread > 1e-9 ? Math.SQRT2 / spread : 1];
}

/** Multiply two 3x3 matrices. */
export function multiply(a: ArrayLike<number>, b: ArrayLike<number>): Homography {
  const out = new Float64Array(9);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      out[r * 3 + c] = a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
  return out;
}

/** Homography mapping `from` to `to` over the pairs at `indices` (at least 4), by normalised least squares. */
export function fitHomography(pairs: Correspondences, indices: ArrayLike<number>): Homography | null {
  if (indices.length < 4) return null;
  const [fx, fy, fs] = normaliser(pairs.from, indices);
  const [tx, ty, ts] = normaliser(pairs.to, indices);
  const ata = new Float64Array(64);
  const atb = new Float64Array(8);
  const row = new Float64Array(8);
  const accumulate = (rhs: number): void => {
    for (let i = 0; i < 8; i++) {
      atb[i]! += row[i]! * rhs;
      for (let j = 0; j < 8; j++) ata[i * 8 + j]! += row[i]! * row[j]!;
    }
  };
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const x = (pairs.from[i * 2]! - fx) * fs;
    const y = (pairs.from[i * 2 + 1]! - fy) * fs;
    const u = (pairs.to[i * 2]! - tx) * ts;
    const v = (pairs.to[i * 2 + 1]! - ty) * ts;
    row.set([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    accumulate(u);
    row.set([0, 0, 0, x, y, 1, -v * x, -v * y]);
    accumulate(v);
  }
  const h = solveLinear(ata, atb, 8);
  if (!h) return null;
  const normalised = Float64Array.from([h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!, 1]);
  // Undo the normalisations: H = T_to^-1 * Hn * T_from.
  const fromT = [fs, 0, -fs * fx, 0, fs, -fs * fy, 0, 0, 1];
  const toInverse = [1 / ts, 0, tx, 0, 1 / ts, ty, 0, 0, 1];
  const result = multiply(toInverse, multiply(normalised, fromT));
  const scale = result[8]!;
  if (Math.abs(scale) < 1e-12) return null;
  for (let i = 0; i < 9; i++) result[i]! /= scale;
  return result;
}

/** Project (x, y) through H; null when the point maps to infinity. */
export function project(h: ArrayLike<number>, x: number, y: number): [number, number] | null {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  if (Math.abs(w) < 1e-12) return null;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/** Inverse of a 3x3 matrix, or null when singular. */
export function invert3(m: ArrayLike<number>): Homography | null {
  const [a, b, c, d, e, f, g, h, i] = [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!, m[8]!];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  if (Math.abs(det) < 1e-12) return null;
  return Float64Array.from(
    [
      e * i - f * h,
      c * h - b * i,
      b * f - c * e,
      f * g - d * i,
      a * i - c * g,
      c * d - a * f,
      d * h - e * g,
      b * g - a * h,
      a * e - b * d,
    ].map((v) => v / det),
  );
}

/** Corners of a width x height rectangle projected through H (clockwise from top-left), or null. */
export function projectOutline(
  h: ArrayLike<number>,
  width: number,
  height: number,
): [number, number][] | null {
  const corners: [number, number][] = [];
  for (const [x, y] of [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ] as const) {
    const p = project(h, x, y);
    if (!p) return null;
    corners.push(p);
  }
  return corners;
}

/**
 * True when a projected outline is a plausible view of a flat print: convex, not mirrored, and no side shorter
 * than `minSideRatio` of the longest (a collapsed or wildly skewed quad is a false homography).
 */
export function isPlausibleOutline(quad: [number, number][], minSideRatio = 0.25): boolean {
  let sign = 0;
  const sides: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = quad[i]!;
    const [bx, by] = quad[(i + 1) % 4]!;
    const [cx, cy] = quad[(i + 2) % 4]!;
    const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    // Image y points down: a clockwise, unmirrored outline has positive cross products.
    if (cross <= 0) return false;
    sign += 1;
    sides.push(Math.hypot(bx - ax, by - ay));
  }
  const longest = Math.max(...sides);
  return sign === 4 && Math.min(...sides) >= longest * minSideRatio;
}
