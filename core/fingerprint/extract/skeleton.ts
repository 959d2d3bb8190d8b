/**
 * Binary skeleton helpers. Images are Uint8Array of 0/1, `width` x `height`, and the outermost pixel ring is kept
 * at 0 so that neighbour lookups never leave the image.
 */

/** Neighbour offsets in cyclic order N, NE, E, SE, S, SW, W, NW. */
export function neighbourOffsets(width: number): Int32Array {
  return Int32Array.from([-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1]);
}

/** 8-bit code of the neighbourhood (bit k set when neighbour k in N, NE, E, ... order is on); pixels are 0/1. */
export function neighbourCode(img: Uint8Array, i: number, offsets: Int32Array): number {
  // Unrolled and branch-free: this runs for every ridge pixel in every thinning pass.
  return (
    img[i + offsets[0]!]! |
    (img[i + offsets[1]!]! << 1) |
    (img[i + offsets[2]!]! << 2) |
    (img[i + offsets[3]!]! << 3) |
    (img[i + offsets[4]!]! << 4) |
    (img[i + offsets[5]!]! << 5) |
    (img[i + offsets[6]!]! << 6) |
    (img[i + offsets[7]!]! << 7)
  );
}

const TRANSITIONS = Uint8Array.from({ length: 256 }, (_, code) => {
  let a = 0;
  for (let k = 0; k < 8; k++) if (!((code >> k) & 1) && (code >> ((k + 1) & 7)) & 1) a++;
  return a;
});

/** Number of 0 to 1 transitions around the neighbourhood (the crossing number): 1 ending, 2 ridge, 3 bifurcation. */
export function transitions(code: number): number {
  return TRANSITIONS[code & 255]!;
}

function popcount(code: number): number {
  let n = 0;
  for (let k = 0; k < 8; k++) n += (code >> k) & 1;
  return n;
}

// Zhang-Suen deletion tables for the two sub-iterations, indexed by neighbourhood code.
const DELETE_FIRST = new Uint8Array(256);
const DELETE_SECOND = new Uint8Array(256);
const CORNER = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  const p = (k: number): number => (code >> k) & 1;
  const [n, e, s, w] = [p(0), p(2), p(4), p(6)];
  const base = popcount(code) >= 2 && popcount(code) <= 6 && transitions(code) === 1;
  DELETE_FIRST[code] = base && !(n && e && s) && !(e && s && w) ? 1 : 0;
  DELETE_SECOND[code] = base && !(n && e && w) && !(n && s && w) ? 1 : 0;
  // Staircase corners: two orthogonal neighbours on and the opposite three off; removing keeps 8-connectivity.
  const corner =
    (n && e && !s && !w && !p(5)) ||
    (e && s && !n && !w && !p(7)) ||
    (s && w && !n && !e && !p(1)) ||
    (w && n && !s && !e && !p(3));
  CORNER[code] = corner && transitions(code) === 1 && popcount(code) >= 2 ? 1 : 0;
}

/** Thin a binary image in place to a one-pixel-wide, 8-connected skeleton (Zhang-Suen, then staircase removal). */
export function thin(img: Uint8Array, width: number, height: number): void {
  const offsets = neighbourOffsets(width);
  for (let x = 0; x < width; x++) {
    img[x] = 0;
    img[(height - 1) * width + x] = 0;
  }
  for (let y = 0; y < height; y++) {
    img[y * width] = 0;
    img[y * width + width - 1] = 0;
  }
  let count = 0;
  for (let i = 0; i < img.length; i++) if (img[i]) count++;
  const active = new Int32Array(count);
  count = 0;
  for (let i = 0; i < img.length; i++) if (img[i]) active[count++] = i;
  const doomed = new Int32Array(count);
  let changed = true;
  while (changed) {
    changed = false;
    for (const table of [DELETE_FIRST, DELETE_SECOND]) {
      let n = 0;
      for (let k = 0; k < count; k++) {
        const i = active[k]!;
        if (!img[i]) continue;
        // neighbourCode, written out with the row above and below at hand (the hottest loop of the thinning).
        const up = i - width;
        const down = i + width;
        const code =
          img[up]! |
          (img[up + 1]! << 1) |
          (img[i + 1]! << 2) |
          (img[down + 1]! << 3) |
          (img[down]! << 4) |
          (img[down - 1]! << 5) |
          (img[i - 1]! << 6) |
          (img[up - 1]! << 7);
        if (table[code]) doomed[n++] = i;
      }
      for (let k = 0; k < n; k++) img[doomed[k]!] = 0;
      if (n > 0) changed = true;
    }
    let kept = 0;
    for (let k = 0; k < count; k++) if (img[active[k]!]) active[kept++] = active[k]!;
    count = kept;
  }
  for (let k = 0; k < count; k++) if (CORNER[neighbourCode(img, active[k]!, offsets)]) img[active[k]!] = 0;
}
