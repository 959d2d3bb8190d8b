import { NEIGHBOURS, type PreparedPrint } from './prepare.js';

/** Tolerances for two edges to agree: length (pixels, plus a share of the length), and both relative angles. */
const LENGTH_TOLERANCE = 8;
const LENGTH_SHARE = 0.08;
const ANGLE_TOLERANCE = Math.PI / 8;
const TURN_TOLERANCE = Math.PI / 6;

function agreement(a: PreparedPrint, sa: number, b: PreparedPrint, sb: number): number {
  const la = a.edgeLength[sa]!;
  const dl = Math.abs(la - b.edgeLength[sb]!);
  const tl = LENGTH_TOLERANCE + LENGTH_SHARE * la;
  if (dl >= tl) return 0;
  let da = Math.abs(a.edgeAngle[sa]! - b.edgeAngle[sb]!);
  if (da > Math.PI) da = 2 * Math.PI - da;
  if (da >= ANGLE_TOLERANCE) return 0;
  let dt = Math.abs(a.edgeTurn[sa]! - b.edgeTurn[sb]!);
  if (dt > Math.PI) dt = 2 * Math.PI - dt;
  if (dt >= TURN_TOLERANCE) return 0;
  return (1 - dl / tl) * (1 - da / ANGLE_TOLERANCE) * (1 - dt / TURN_TOLERANCE);
}

/**
 * Local similarity of every minutia pair (row-major, a.n x b.n) in [0, 1]: how well the star of nearest neighbours
 * around one minutia agrees with the star around the other, in each one's own frame (so rotation and translation
 * do not matter). Each neighbour takes its best counterpart; both directions are averaged, so the matrix of
 * (b, a) is the transpose of (a, b).
 */
export function localSimilarity(a: PreparedPrint, b: PreparedPrint): Float32Array {
  const out = new Float32Array(a.n * b.n);
  const bestB = new Float32Array(NEIGHBOURS);
  for (let i = 0; i < a.n; i++) {
    const ca = a.edgeCount[i]!;
    if (ca === 0) continue;
    for (let j = 0; j < b.n; j++) {
      const cb = b.edgeCount[j]!;
      if (cb === 0) continue;
      bestB.fill(0);
      let sumA = 0;
      for (let u = 0; u < ca; u++) {
        let best = 0;
        for (let v = 0; v < cb; v++) {
          const s = agreement(a, i * NEIGHBOURS + u, b, j * NEIGHBOURS + v);
          if (s > best) best = s;
          if (s > bestB[v]!) bestB[v] = s;
        }
        sumA += best;
      }
      let sumB = 0;
      for (let v = 0; v < cb; v++) sumB += bestB[v]!;
      out[i * b.n + j] = (sumA + sumB) / (ca + cb);
    }
  }
  return out;
}
