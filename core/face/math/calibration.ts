/**
 * Similarity-to-false-match-rate calibration: a monotone table read off impostor scores, with an exponential tail
 * fitted to the highest impostors so rates below what the data can resolve are estimated, not clipped to zero.
 */
export interface FmrCalibration {
  /** Model and pipeline the scores come from (a model change needs a new calibration). */
  model: string;
  /** Data set and protocol the impostor scores came from. */
  source: string;
  impostorCount: number;
  /** (similarity, FMR) pairs, similarity increasing, FMR decreasing. */
  points: [number, number][];
  /** Beyond the last point: FMR = fmr0 * exp(-rate * (similarity - from)). */
  tail: { from: number; fmr0: number; rate: number };
}

/** Lowest rate ever reported (a floor, so log-space maths stay finite). */
const MIN_FMR = 1e-12;

/** Build a calibration from impostor similarities (needs a few thousand for a useful 1e-3 point). */
export function buildCalibration(
  impostors: ArrayLike<number>,
  model: string,
  source: string,
): FmrCalibration {
  const n = impostors.length;
  if (n < 100) throw new Error('A calibration needs at least 100 impostor scores.');
  // Typed-array sort is numeric and fast on millions of scores; reversed to read the top impostors first.
  const desc = Float64Array.from(impostors).sort().reverse();
  // FMR(t) = share of impostors scoring >= t: read it at log-spaced rates down to 10 impostors' worth.
  const points: [number, number][] = [];
  for (let fmr = 1; fmr >= 10 / n; fmr /= 10 ** 0.1) {
    const k = Math.max(0, Math.ceil(fmr * n) - 1);
    const score = desc[k] ?? 0;
    const last = points[points.length - 1];
    if (last && score <= last[0]) continue;
    points.push([score, (k + 1) / n]);
  }
  // Exponential tail fitted (least squares on log FMR) over the top 1% of impostors.
  const tailPoints = points.filter(([, f]) => f <= 0.01);
  const fitOn = tailPoints.length >= 3 ? tailPoints : points.slice(-3);
  const mx = fitOn.reduce((s, p) => s + p[0], 0) / fitOn.length;
  const my = fitOn.reduce((s, p) => s + Math.log(p[1]), 0) / fitOn.length;
  let sxy = 0;
  let sxx = 0;
  for (const [x, f] of fitOn) {
    sxy += (x - mx) * (Math.log(f) - my);
    sxx += (x - mx) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : -50;
  const last = points[points.length - 1]!;
  return {
    model,
    source,
    impostorCount: n,
    points,
    tail: { from: last[0], fmr0: last[1], rate: Math.max(1, -slope) },
  };
}

/** Estimated FMR of a similarity score: log-linear between table points, the fitted tail above, 1 below. */
export function estimateFmr(cal: FmrCalibration, score: number): number {
  const pts = cal.points;
  const first = pts[0];
  if (!first || score <= first[0]) return first ? first[1] : 1;
  if (score >= cal.tail.from)
    return Math.max(MIN_FMR, cal.tail.fmr0 * Math.exp(-cal.tail.rate * (score - cal.tail.from)));
  for (let i = 1; i < pts.length; i++) {
    const [s1, f1] = pts[i]!;
    if (score <= s1) {
      const [s0, f0] = pts[i - 1]!;
      const t = (score - s0) / (s1 - s0);
      return Math.exp(Math.log(f0) + t * (Math.log(f1) - Math.log(f0)));
    }
  }
  return cal.tail.fmr0;
}

/** The similarity whose estimated FMR is `fmr` (inverse of `estimateFmr`). */
export function thresholdForFmr(cal: FmrCalibration, fmr: number): number {
  const target = Math.max(MIN_FMR, Math.min(1, fmr));
  const pts = cal.points;
  const first = pts[0];
  if (!first) return 1;
  if (target >= first[1]) return first[0];
  if (target <= cal.tail.fmr0) return cal.tail.from + Math.log(cal.tail.fmr0 / target) / cal.tail.rate;
  for (let i = 1; i < pts.length; i++) {
    const [s1, f1] = pts[i]!;
    if (target >= f1) {
      const [s0, f0] = pts[i - 1]!;
      const t = (Math.log(target) - Math.log(f0)) / (Math.log(f1) - Math.log(f0));
      return s0 + t * (s1 - s0);
    }
  }
  return cal.tail.from;
}
