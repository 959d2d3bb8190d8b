import type { LineBand } from './locate.js';
import type { Raster } from './morphology.js';

/** Sum of the integers 0..k squared. */
const squares = (k: number): number => (k * (k + 1) * (2 * k + 1)) / 6;

/**
 * Connected components (4-neighbour) of a 0/255 mask, each with its box and the moments of its ink, in the order of
 * their first pixel. Labelled by runs: each row's runs of ink are joined to the runs they touch in the row above
 * (union-find), and a run adds its moments in closed form, so the cost follows the runs rather than the pixels
 * (the zone search's masks are closed along rows: a few runs a row).
 */
export function components(mask: Raster): LineBand[] {
  const { width, height, data } = mask;
  const starts: number[] = [];
  const ends: number[] = [];
  const rows: number[] = [];
  const parent: number[] = [];
  const find = (r: number): number => {
    while (parent[r] !== r) {
      const up = parent[parent[r]!]!;
      parent[r] = up;
      r = up;
    }
    return r;
  };
  // The root of a set is its first run (the lower index): the components come out in raster order.
  const join = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  };
  let above = 0;
  let aboveEnd = 0;
  for (let y = 0; y < height; y++) {
    const base = y * width;
    const first = starts.length;
    let scan = above;
    for (let x = 0; x < width; x++) {
      if (data[base + x] === 0) continue;
      const start = x;
      while (x + 1 < width && data[base + x + 1] !== 0) x++;
      const run = starts.length;
      starts.push(start);
      ends.push(x);
      rows.push(y);
      parent.push(run);
      // Runs above that share a column with this one; they are in order, so the scan only moves forward.
      while (scan < aboveEnd && ends[scan]! < start) scan++;
      for (let r = scan; r < aboveEnd && starts[r]! <= x; r++) join(run, r);
    }
    above = first;
    aboveEnd = starts.length;
  }
  const count = starts.length;
  const slot = new Int32Array(count).fill(-1);
  const sums: number[][] = [];
  for (let run = 0; run < count; run++) {
    const root = find(run);
    if (slot[root] === -1) {
      slot[root] = sums.length;
      sums.push([0, 0, 0, 0, 0, 0, width, height, 0, 0]);
    }
    const s = sums[slot[root]!]!;
    const x0 = starts[run]!;
    const x1 = ends[run]!;
    const y = rows[run]!;
    const n = x1 - x0 + 1;
    const sx = (n * (x0 + x1)) / 2;
    s[0]! += n;
    s[1]! += sx;
    s[2]! += n * y;
    s[3]! += squares(x1) - (x0 > 0 ? squares(x0 - 1) : 0);
    s[4]! += n * y * y;
    s[5]! += sx * y;
    if (x0 < s[6]!) s[6] = x0;
    if (y < s[7]!) s[7] = y;
    if (x1 > s[8]!) s[8] = x1;
    if (y > s[9]!) s[9] = y;
  }
  return sums.map(([n, sx, sy, sxx, syy, sxy, x0, y0, x1, y1]) => {
    const cx = sx! / n!;
    const cy = sy! / n!;
    const mu20 = sxx! / n! - cx * cx;
    const mu02 = syy! / n! - cy * cy;
    const mu11 = sxy! / n! - cx * cy;
    const spread = Math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2);
    const major = (mu20 + mu02) / 2 + spread;
    const minor = Math.max(0, (mu20 + mu02) / 2 - spread);
    return {
      x: x0!,
      y: y0!,
      width: x1! - x0! + 1,
      height: y1! - y0! + 1,
      angle: 0.5 * Math.atan2(2 * mu11, mu20 - mu02),
      cx,
      cy,
      length: Math.sqrt(12 * major),
      thickness: Math.sqrt(12 * minor) + 1,
    };
  });
}
