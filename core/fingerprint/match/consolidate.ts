import { cellIndex } from '../template/extra.js';
import { flowAgreement, localTurns, type Rigid } from './flow.js';
import { insideHull, wrapAngle } from './geometry.js';
import type { FingerTurn } from './index.js';
import type { PreparedPrint } from './prepare.js';

/** Pairing tolerance: base distance (pixels), growth per pixel away from the anchor (skin stretches), angle. */
const DISTANCE_TOLERANCE = 12;
const DISTANCE_GROWTH = 0.05;
const ANGLE_TOLERANCE = Math.PI / 6;
/** Overlap counts below this are raised to it, so tiny overlaps cannot score high by chance. */
const MIN_OVERLAP = 12;
/** Share of a pair's weight that comes from the local (star) similarity of the two minutiae, the rest geometric. */
const LOCAL_SHARE = 0.8;
/** Share of the skin's local turn by which untwist turns a minutia's position (about the pairs' centre). */
const POSITION_TURN = 0.5;
/** Flow agreement at or below this zeroes the score; above, the score is scaled by its rescaled 4th power. */
const FLOW_FLOOR = 0.3;
const FLOW_POWER = 4;
/**
 * Relative difference of the two prints' mean ridge periods over their overlap at which the score is scaled by
 * exp(-1) (Gaussian), and the cells of overlap it needs. Another finger often has another ridge spacing, while
 * the same finger pressed harder or softer changes it little. 0.3 is the gentlest tolerance that helps (sets we do not
 * have may vary their pressure more); the signed mean is used so one noisy cell weighs less than a systematic shift.
 */
const PERIOD_TOLERANCE = 0.3;
const PERIOD_MIN_CELLS = 4;
/**
 * How far one impression may be turned against the other (radians): full credit up to ROTATION_FREE, then falling
 * linearly to nothing at ROTATION_LIMIT. A finger is laid on a flat sensor roughly upright; the confident genuine
 * pairs of the four FVC sets (score above 15) turn by at most 75 degrees, while chance alignments of another finger
 * come at any angle (5 of FVC2004_DB1's 25 best impostors turned by 100 to 170 degrees). Seeds beyond the limit are
 * not tried (index.ts). Applies to the 'upright' turn, not to 'any'. The gentlest of the equally good limits was
 * taken, for sets we do not have.
 */
export const ROTATION_FREE = Math.PI / 3;
export const ROTATION_LIMIT = (2 * Math.PI) / 3;

/** Result of pairing A with B under one alignment, before its maps are compared (scoreAlignment). */
export interface Pairing {
  /** The minutiae score times the turn factor: the score if the maps agree perfectly. */
  bound: number;
  t: Rigid;
  /** B's paired minutiae. */
  pairs: number[];
  /** The bound per squared sum of pair weights: the turn factor over the geometric mean of the overlap counts. */
  scale: number;
}

function centroid(p: PreparedPrint, members: number[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const k of members) {
    x += p.x[k]!;
    y += p.y[k]!;
  }
  return [x / members.length, y / members.length];
}

/**
 * The alignment's minutiae paired again, each of A's carried by the skin's local turn where the flow maps show one
 * (flow.ts, localTurns): its direction turned by it, its position turned by half of it about the pairs' centre in
 * B, since a twist grows from the centre outwards. Distorted impressions then pair minutiae outside the central
 * region the rigid alignment fits. The transform and the overlap stay the rigid alignment's.
 */
export function untwist(
  a: PreparedPrint,
  b: PreparedPrint,
  local: Float32Array,
  alignment: Pairing,
): Pairing {
  if (alignment.pairs.length < 3) return alignment;
  const turns = localTurns(a, b, alignment.t);
  if (!turns) return alignment;
  const [cx, cy] = centroid(b, alignment.pairs);
  const mapped = mapRigid(a, alignment.t);
  for (let k = 0; k < a.n; k++) {
    const turn = turns[k]!;
    if (turn === 0) continue;
    const c = Math.cos(POSITION_TURN * turn);
    const s = Math.sin(POSITION_TURN * turn);
    const dx = mapped.x[k]! - cx;
    const dy = mapped.y[k]! - cy;
    mapped.x[k] = cx + c * dx - s * dy;
    mapped.y[k] = cy + s * dx + c * dy;
    mapped.dir[k]! += turn;
  }
  const p = pairUp(a, b, local, mapped, cx, cy);
  const sum = p.w.reduce((acc, v) => acc + v, 0);
  return { ...alignment, bound: sum * sum * alignment.scale, pairs: p.ib };
}

/**
 * The alignment's score: its bound scaled by the ridge-period and ridge-flow factors (each at most 1), or 0 when it
 * cannot beat `best` (the best score so far), in which case the flow is not computed. Without both maps (ISO-imported
 * features) the minutiae alone decide.
 */
export function scoreAlignment(a: PreparedPrint, b: PreparedPrint, alignment: Pairing, best: number): number {
  const flow = flowAgreement(a, b, alignment.t);
  // Without both period maps (older or imported features) the period does not count.
  const periodFactor =
    flow.periodCells >= PERIOD_MIN_CELLS ? Math.exp(-((flow.periodShift / PERIOD_TOLERANCE) ** 2)) : 1;
  const bound = alignment.bound * periodFactor;
  if (flow.cells < 4) return bound;
  if (bound <= best) return 0;
  return bound * Math.max(0, (flow.agreement() - FLOW_FLOOR) / (1 - FLOW_FLOOR)) ** FLOW_POWER;
}

/** A's minutiae carried into B's frame: positions and directions. */
interface Mapped {
  x: Float64Array;
  y: Float64Array;
  dir: Float64Array;
}

// mapRigid's answer, reused: each is read by the pairUp that follows it, before the next mapRigid.
let mappedScratch: Mapped = { x: new Float64Array(64), y: new Float64Array(64), dir: new Float64Array(64) };

/** A's minutiae under t. The arrays are overwritten by the next call. */
function mapRigid(a: PreparedPrint, t: Rigid): Mapped {
  if (mappedScratch.x.length < a.n) {
    const size = 2 * a.n;
    mappedScratch = { x: new Float64Array(size), y: new Float64Array(size), dir: new Float64Array(size) };
  }
  const { x, y, dir } = mappedScratch;
  const c = Math.cos(t.angle);
  const s = Math.sin(t.angle);
  for (let k = 0; k < a.n; k++) {
    x[k] = c * a.x[k]! - s * a.y[k]! + t.tx;
    y[k] = s * a.x[k]! + c * a.y[k]! + t.ty;
    dir[k] = a.dir[k]! + t.angle;
  }
  return mappedScratch;
}

/** Up to this many candidate pairs, pairUp orders them by insertion. */
const INSERTION_LIMIT = 48;

// pairUp's scratch, grown as needed: the tolerance per B minutia, and the candidate pairs (A's, B's, weight).
let tols = new Float64Array(64);
let candA = new Int32Array(256);
let candB = new Int32Array(256);
let candW = new Float64Array(256);
let order = new Int32Array(256);
// Which minutiae are paired already: those whose stamp is the current pairUp's.
let stampA = new Uint32Array(64);
let stampB = new Uint32Array(64);
let stamp = 0;

/**
 * One-to-one pairs of A's mapped minutiae with B's, best agreement first (ties: A's index, then B's); tolerances
 * grow away from (ax, ay). Each mapped A minutia meets only the B minutiae within the largest tolerance of it in
 * x, a sweep over B's minutiae in x order.
 */
function pairUp(
  a: PreparedPrint,
  b: PreparedPrint,
  local: Float32Array,
  mapped: Mapped,
  ax: number,
  ay: number,
): { ia: number[]; ib: number[]; w: number[] } {
  if (tols.length < b.n) tols = new Float64Array(2 * b.n);
  let reach = 0;
  for (let l = 0; l < b.n; l++) {
    const dx = b.x[l]! - ax;
    const dy = b.y[l]! - ay;
    tols[l] = DISTANCE_TOLERANCE + DISTANCE_GROWTH * Math.sqrt(dx * dx + dy * dy);
    if (tols[l]! > reach) reach = tols[l]!;
  }
  const byX = b.byX;
  let count = 0;
  for (let k = 0; k < a.n; k++) {
    const x = mapped.x[k]!;
    const y = mapped.y[k]!;
    const dir = mapped.dir[k]!;
    // The first B minutia in x order that is less than `reach` to the left of x.
    let lo = 0;
    let hi = b.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (b.x[byX[mid]!]! - x <= -reach) lo = mid + 1;
      else hi = mid;
    }
    for (let m = lo; m < b.n; m++) {
      const l = byX[m]!;
      const dx = b.x[l]! - x;
      if (dx >= reach) break;
      const tol = tols[l]!;
      if (dx >= tol || dx <= -tol) continue;
      const dy = b.y[l]! - y;
      const d2 = dx * dx + dy * dy;
      if (d2 >= tol * tol) continue;
      const d = Math.sqrt(d2);
      const da = Math.abs(wrapAngle(b.dir[l]! - dir));
      if (da >= ANGLE_TOLERANCE) continue;
      const geo = 1 - 0.5 * (d / tol) - 0.5 * (da / ANGLE_TOLERANCE);
      if (count === candW.length) {
        candA = grown(candA, new Int32Array(2 * count));
        candB = grown(candB, new Int32Array(2 * count));
        candW = grown(candW, new Float64Array(2 * count));
      }
      candA[count] = k;
      candB[count] = l;
      candW[count] = geo * (1 - LOCAL_SHARE + LOCAL_SHARE * local[k * b.n + l]!);
      count++;
    }
  }
  // Candidates best first (ties: A's index, then B's). There are about ten: insertion, unless there are many.
  if (order.length < count) order = new Int32Array(2 * count);
  if (count > INSERTION_LIMIT) {
    for (let c = 0; c < count; c++) order[c] = c;
    order
      .subarray(0, count)
      .sort((p, q) => candW[q]! - candW[p]! || candA[p]! - candA[q]! || candB[p]! - candB[q]!);
  } else {
    for (let c = 0; c < count; c++) {
      const w = candW[c]!;
      const k = candA[c]!;
      const l = candB[c]!;
      let at = c;
      for (; at > 0; at--) {
        const p = order[at - 1]!;
        if (candW[p]! > w || (candW[p] === w && (candA[p]! < k || (candA[p] === k && candB[p]! < l)))) break;
        order[at] = p;
      }
      order[at] = c;
    }
  }
  if (stampA.length < a.n) stampA = new Uint32Array(2 * a.n);
  if (stampB.length < b.n) stampB = new Uint32Array(2 * b.n);
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    stampA.fill(0);
    stampB.fill(0);
    stamp = 1;
  }
  const ia: number[] = [];
  const ib: number[] = [];
  const w: number[] = [];
  for (let m = 0; m < count; m++) {
    const c = order[m]!;
    const k = candA[c]!;
    const l = candB[c]!;
    if (stampA[k] === stamp || stampB[l] === stamp) continue;
    stampA[k] = stamp;
    stampB[l] = stamp;
    ia.push(k);
    ib.push(l);
    w.push(candW[c]!);
  }
  return { ia, ib, w };
}

function grown<T extends Int32Array | Float64Array>(old: T, bigger: T): T {
  bigger.set(old);
  return bigger;
}

/** Weighted least-squares rotation and translation taking the paired A points onto their B partners. */
function fitRigid(a: PreparedPrint, b: PreparedPrint, ia: number[], ib: number[], w: number[]): Rigid {
  let sw = 0;
  let cax = 0;
  let cay = 0;
  let cbx = 0;
  let cby = 0;
  ia.forEach((k, m) => {
    const l = ib[m]!;
    const wt = w[m]!;
    sw += wt;
    cax += wt * a.x[k]!;
    cay += wt * a.y[k]!;
    cbx += wt * b.x[l]!;
    cby += wt * b.y[l]!;
  });
  cax /= sw;
  cay /= sw;
  cbx /= sw;
  cby /= sw;
  let sc = 0;
  let ss = 0;
  ia.forEach((k, m) => {
    const l = ib[m]!;
    const wt = w[m]!;
    const px = a.x[k]! - cax;
    const py = a.y[k]! - cay;
    const qx = b.x[l]! - cbx;
    const qy = b.y[l]! - cby;
    sc += wt * (px * qx + py * qy);
    ss += wt * (px * qy - py * qx);
  });
  const angle = Math.atan2(ss, sc);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return { angle, tx: cbx - (c * cax - s * cay), ty: cby - (s * cax + c * cay) };
}

function insideRegion(p: PreparedPrint, x: number, y: number): boolean {
  if (!p.mask || !p.interior) return insideHull(p.hull, x, y, 12);
  // The extractor finds no minutiae within about a cell of the print's edge: do not expect any there.
  const k = cellIndex(p.mask, x, y);
  return k >= 0 && p.interior[k] === 1;
}

/**
 * Align A onto B by the seed pair (i, j), pair minutiae greedily (best agreement first, one-to-one), refit the
 * alignment on those pairs and pair again. The minutiae score is the squared sum of pair weights over the geometric
 * mean of the minutiae counts inside the common area: it grows with the number of matched minutiae and only
 * partly with the share matched, since noisy impressions carry many minutiae their mates cannot show (dividing by
 * the product of the counts, i.e. the share from both sides, did worse). With turn
 * 'upright' it is scaled down when the alignment turns the finger further than a finger is laid on a fixed reader.
 * scoreAlignment then scales it down when the two prints' ridge periods or ridge flow (net of the skin's local
 * twist, flow.ts) disagree under the alignment.
 */
export function consolidate(
  a: PreparedPrint,
  b: PreparedPrint,
  local: Float32Array,
  i: number,
  j: number,
  turn: FingerTurn = 'upright',
): Pairing {
  const angle = wrapAngle(b.dir[j]! - a.dir[i]!);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  let t: Rigid = {
    angle,
    tx: b.x[j]! - (c * a.x[i]! - s * a.y[i]!),
    ty: b.y[j]! - (s * a.x[i]! + c * a.y[i]!),
  };
  // A under the final alignment stays in `mapped` (pairUp does not map), for the overlap count below.
  let mapped = mapRigid(a, t);
  let p = pairUp(a, b, local, mapped, b.x[j]!, b.y[j]!);
  if (p.ia.length >= 3) {
    t = fitRigid(a, b, p.ia, p.ib, p.w);
    const [cx, cy] = centroid(b, p.ib);
    mapped = mapRigid(a, t);
    p = pairUp(a, b, local, mapped, cx, cy);
  }
  const turned = Math.abs(wrapAngle(t.angle));
  if (turn === 'upright' && turned >= ROTATION_LIMIT) return { bound: 0, t, pairs: [], scale: 0 };
  const rotationFactor =
    turn === 'any' || turned <= ROTATION_FREE
      ? 1
      : (ROTATION_LIMIT - turned) / (ROTATION_LIMIT - ROTATION_FREE);
  let nA = 0;
  for (let k = 0; k < a.n; k++) if (insideRegion(b, mapped.x[k]!, mapped.y[k]!)) nA++;
  const cos = Math.cos(t.angle);
  const sin = Math.sin(t.angle);
  let nB = 0;
  for (let l = 0; l < b.n; l++) {
    const dx = b.x[l]! - t.tx;
    const dy = b.y[l]! - t.ty;
    if (insideRegion(a, cos * dx + sin * dy, -sin * dx + cos * dy)) nB++;
  }
  const sum = p.w.reduce((acc, v) => acc + v, 0);
  const scale = rotationFactor / Math.sqrt(Math.max(nA, MIN_OVERLAP) * Math.max(nB, MIN_OVERLAP));
  return { bound: sum * sum * scale, t, pairs: p.ib, scale };
}
