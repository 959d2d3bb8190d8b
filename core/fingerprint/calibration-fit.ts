/** A score-to-false-match-rate table: points of increasing score and decreasing log10(FMR), plus a tail slope. */
export interface CalibrationTable {
  modelVersion: string;
  impostorCount: number;
  /** [score, log10 FMR] pairs, scores strictly increasing, FMR strictly decreasing. */
  points: [number, number][];
  /** d log10(FMR) / d score beyond the last point (negative): an exponential tail. */
  tailSlope: number;
}

/** FMR levels the table is sampled at, from 1 down to 1e-6 (stopping at what the impostor count can resolve). */
const LEVELS = [
  1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6,
  1e-6,
];

/**
 * Fit a calibration table from impostor scores: the empirical FMR (share of impostors scoring >= s) sampled at
 * fixed levels, made strictly monotone, and an exponential tail fitted on the top 1% of impostors so that
 * thresholds stricter than the data can still be set (pure; eval/write-calibration.ts stores the result).
 */
export function fitCalibration(impostorScores: number[], modelVersion: string): CalibrationTable {
  const s = [...impostorScores].sort((a, b) => b - a);
  const n = s.length;
  const points: [number, number][] = [];
  for (const level of LEVELS) {
    const k = Math.floor(level * n);
    if (k < 1) break;
    // The score that exactly k impostors reach or exceed, nudged just above the next one.
    const score = k >= n ? 0 : (s[k - 1]! + s[k]!) / 2;
    const last = points[points.length - 1];
    if (last && score <= last[0]) continue;
    points.push([score, Math.log10(level)]);
  }
  const top = s[0] ?? 0;
  if (points.length === 0 || top > points[points.length - 1]![0])
    points.push([top + 1e-6, Math.log10(1 / Math.max(1, n))]);
  const anchor = points.find((p) => p[1] <= -2) ?? points[0]!;
  const end = points[points.length - 1]!;
  const measured = end[0] > anchor[0] ? (end[1] - anchor[1]) / (end[0] - anchor[0]) : -1;
  // Never a flat tail: at least one decade per 10 score units past the data.
  return { modelVersion, impostorCount: n, points, tailSlope: Math.min(measured, -0.1) };
}

/** log10 FMR at a score, by linear interpolation in the table and the exponential tail beyond it. */
export function log10FmrAt(table: CalibrationTable, score: number): number {
  const pts = table.points;
  const first = pts[0]!;
  if (score <= first[0]) return Math.min(0, first[1]);
  for (let k = 1; k < pts.length; k++) {
    const [s1, f1] = pts[k]!;
    if (score <= s1) {
      const [s0, f0] = pts[k - 1]!;
      return f0 + ((f1 - f0) * (score - s0)) / (s1 - s0);
    }
  }
  const last = pts[pts.length - 1]!;
  return last[1] + table.tailSlope * (score - last[0]);
}

/** The score whose log10 FMR equals `target`: the inverse of log10FmrAt. */
export function scoreAtLog10Fmr(table: CalibrationTable, target: number): number {
  const pts = table.points;
  const first = pts[0]!;
  if (target >= first[1]) return first[0];
  for (let k = 1; k < pts.length; k++) {
    const [s1, f1] = pts[k]!;
    if (target >= f1) {
      const [s0, f0] = pts[k - 1]!;
      return s0 + ((s1 - s0) * (target - f0)) / (f1 - f0);
    }
  }
  const last = pts[pts.length - 1]!;
  return last[0] + (target - last[1]) / table.tailSlope;
}
