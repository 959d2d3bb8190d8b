import { ANGLE_BINS, edgeKey, KEY_COUNT, LENGTH_BIN, LENGTH_BINS, TURN_BINS } from './edge-hash.js';
import { NEIGHBOURS, type PreparedPrint } from './prepare.js';
import { RIDGES_UNKNOWN } from '../template/extra.js';

/** Tolerances for two edges to agree: length (pixels, plus a share of the length), and both relative angles. */
const LENGTH_TOLERANCE = 8;
const LENGTH_SHARE = 0.08;
const ANGLE_TOLERANCE = Math.PI / 8;
const TURN_TOLERANCE = Math.PI / 6;
/**
 * Weight of an edge whose ridge counts differ by one; more than one and the edges disagree. Distances stretch with
 * the skin, ridge counts do not, so chance look-alike stars of other fingers are told apart.
 */
const RIDGE_OFF_BY_ONE = 0.7;

function agreement(a: PreparedPrint, sa: number, b: PreparedPrint, sb: number): number {
  const la = a.edgeLength[sa]!;
  const lb = b.edgeLength[sb]!;
  const dl = Math.abs(la - lb);
  const tl = LENGTH_TOLERANCE + LENGTH_SHARE * 0.5 * (la + lb);
  if (dl >= tl) return 0;
  let da = Math.abs(a.edgeAngle[sa]! - b.edgeAngle[sb]!);
  if (da > Math.PI) da = 2 * Math.PI - da;
  if (da >= ANGLE_TOLERANCE) return 0;
  let dt = Math.abs(a.edgeTurn[sa]! - b.edgeTurn[sb]!);
  if (dt > Math.PI) dt = 2 * Math.PI - dt;
  if (dt >= TURN_TOLERANCE) return 0;
  let ridge = 1;
  if (a.edgeRidges && b.edgeRidges) {
    const ra = a.edgeRidges[sa]!;
    const rb = b.edgeRidges[sb]!;
    if (ra !== RIDGES_UNKNOWN && rb !== RIDGES_UNKNOWN) {
      const gap = Math.abs(ra - rb);
      if (gap > 1) return 0;
      if (gap === 1) ridge = RIDGE_OFF_BY_ONE;
    }
  }
  return ridge * (1 - dl / tl) * (1 - da / ANGLE_TOLERANCE) * (1 - dt / TURN_TOLERANCE);
}

/** The edge slots of a print filed under every edge key whose edges they could agree with (see reachIndex). */
interface ReachIndex {
  start: Int32Array;
  slots: Int32Array;
}

const reachIndexes = new WeakMap<PreparedPrint, ReachIndex>();

/** Every bin of `bins` equal circular bins over (-PI, PI] that a value within `tolerance` of `angle` can fall in. */
function circularBins(angle: number, tolerance: number, bins: number, visit: (bin: number) => void): void {
  const scale = bins / (2 * Math.PI);
  const first = Math.floor((angle - tolerance + Math.PI) * scale);
  const last = Math.floor((angle + tolerance + Math.PI) * scale);
  for (let k = first; k <= last; k++) visit(((k % bins) + bins) % bins);
}

/**
 * A print's edge slots filed under every edge key (edge-hash.ts) that holds an edge they could agree with: the
 * length bins of every length within the tolerance, the angle and turn bins within theirs. One lookup with the other
 * print's edge key then yields every candidate, instead of probing each neighbouring bin (most of them empty).
 * Built once per prepared print, when it is first compared as the probe side.
 */
function reachIndex(p: PreparedPrint): ReachIndex {
  const cached = reachIndexes.get(p);
  if (cached) return cached;
  const keys: number[] = [];
  const slots: number[] = [];
  const half = LENGTH_SHARE / 2;
  for (let i = 0; i < p.n; i++) {
    for (let u = 0; u < p.edgeCount[i]!; u++) {
      const slot = i * NEIGHBOURS + u;
      const len = p.edgeLength[slot]!;
      // Lengths lb with |len - lb| < LENGTH_TOLERANCE + LENGTH_SHARE * (len + lb) / 2.
      const lo = (len * (1 - half) - LENGTH_TOLERANCE) / (1 + half);
      const hi = (len * (1 + half) + LENGTH_TOLERANCE) / (1 - half);
      const l0 = Math.max(0, Math.floor(lo / LENGTH_BIN));
      const l1 = Math.min(LENGTH_BINS - 1, Math.floor(hi / LENGTH_BIN));
      circularBins(p.edgeAngle[slot]!, ANGLE_TOLERANCE, ANGLE_BINS, (a) => {
        circularBins(p.edgeTurn[slot]!, TURN_TOLERANCE, TURN_BINS, (t) => {
          for (let l = l0; l <= l1; l++) {
            keys.push(edgeKey(l, a, t));
            slots.push(slot);
          }
        });
      });
    }
  }
  const start = new Int32Array(KEY_COUNT + 1);
  for (const key of keys) start[key + 1]!++;
  for (let k = 0; k < KEY_COUNT; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, KEY_COUNT);
  const filed = new Int32Array(slots.length);
  keys.forEach((key, m) => {
    filed[fill[key]!++] = slots[m]!;
  });
  const index = { start, slots: filed };
  reachIndexes.set(p, index);
  return index;
}

/**
 * Local similarity of every minutia pair (row-major, a.n x b.n) in [0, 1]: how well the star of nearest neighbours
 * around one minutia agrees with the star around the other, in each one's own frame (so rotation and translation
 * do not matter). Each of b's edges looks up the a edges it could agree with in a's reach index, so the cost grows
 * with the number of edges, not with their square. The result is symmetric: (b, a) gives the transpose of (a, b).
 */
export function localSimilarity(a: PreparedPrint, b: PreparedPrint): Float32Array {
  const out = new Float32Array(a.n * b.n);
  const reach = reachIndex(a);
  for (let j = 0; j < b.n; j++) {
    for (let u = 0; u < b.edgeCount[j]!; u++) {
      const sb = j * NEIGHBOURS + u;
      const key = b.edgeKeys[sb]!;
      const end = reach.start[key + 1]!;
      for (let q = reach.start[key]!; q < end; q++) {
        const sa = reach.slots[q]!;
        const s = agreement(a, sa, b, sb);
        if (s > 0) out[((sa / NEIGHBOURS) | 0) * b.n + j]! += s;
      }
    }
  }
  for (let i = 0; i < a.n; i++) {
    const ca = a.edgeCount[i]!;
    for (let j = 0; j < b.n; j++) {
      const c = ca + b.edgeCount[j]!;
      if (c > 0) out[i * b.n + j] = Math.min(1, (2 * out[i * b.n + j]!) / c);
    }
  }
  return out;
}
