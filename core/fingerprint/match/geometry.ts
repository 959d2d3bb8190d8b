/** Pure 2-D helpers for the matcher. */

/** Angle wrapped to (-PI, PI]. */
export function wrapAngle(a: number): number {
  let d = a % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/** Convex hull (counter-clockwise in y-up terms) of points given as flat x/y arrays: Andrew's monotone chain. */
export function convexHull(xs: Float64Array, ys: Float64Array): Float64Array {
  const idx = Array.from(xs.keys()).sort((a, b) => xs[a]! - xs[b]! || ys[a]! - ys[b]!);
  const cross = (o: number, a: number, b: number): number =>
    (xs[a]! - xs[o]!) * (ys[b]! - ys[o]!) - (ys[a]! - ys[o]!) * (xs[b]! - xs[o]!);
  const lower: number[] = [];
  for (const p of idx) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: number[] = [];
  for (let k = idx.length - 1; k >= 0; k--) {
    const p = idx[k]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  const out = new Float64Array(hull.length * 2);
  hull.forEach((p, k) => {
    out[2 * k] = xs[p]!;
    out[2 * k + 1] = ys[p]!;
  });
  return out;
}

/** Whether (x, y) lies inside the convex polygon `hull` (flat x,y pairs) or within `margin` pixels of it. */
export function insideHull(hull: Float64Array, x: number, y: number, margin: number): boolean {
  const n = hull.length / 2;
  if (n < 3) return false;
  for (let k = 0; k < n; k++) {
    const ax = hull[2 * k]!;
    const ay = hull[2 * k + 1]!;
    const bx = hull[(2 * (k + 1)) % (2 * n)]!;
    const by = hull[(2 * (k + 1) + 1) % (2 * n)]!;
    const ex = bx - ax;
    const ey = by - ay;
    const len = Math.sqrt(ex * ex + ey * ey) || 1;
    // Signed distance to the edge line; the hull winds so that the inside is on the positive side.
    const side = (ex * (y - ay) - ey * (x - ax)) / len;
    if (side < -margin) return false;
  }
  return true;
}
