import { errorRates } from './metrics.js';

/** Average ranks (1-based; ties share the mean of their ranks). */
function ranks(values: ArrayLike<number>): Float64Array {
  const order = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const out = new Float64Array(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]!] === values[order[i]!]) j++;
    for (let k = i; k <= j; k++) out[order[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** Spearman's rank correlation of two equally long series, in [-1, 1]; 0 when either is constant or empty. */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  if (n < 2) return 0;
  const ra = ranks(Array.prototype.slice.call(a, 0, n) as number[]);
  const rb = ranks(Array.prototype.slice.call(b, 0, n) as number[]);
  const mean = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (ra[i]! - mean) * (rb[i]! - mean);
    saa += (ra[i]! - mean) ** 2;
    sbb += (rb[i]! - mean) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}

/** A scored comparison of impressions `a` and `b` of a set. */
export interface ScoredPair {
  a: number;
  b: number;
  score: number;
  genuine: boolean;
}

/** How well image quality predicts matching (NFIQ 2's sense of quality). */
export interface QualityUtility {
  /** Spearman correlation between a genuine pair's lower quality and its score (higher: quality predicts). */
  genuineSpearman: number;
  /** EER (%) of the pairs left after the `dropShare` lowest-quality images are left out. */
  eerAfterDrop: number;
  /** Images left out. */
  dropped: number;
}

/**
 * Quality against matching: the rank correlation of min(quality) with the genuine score, and the EER once the
 * lowest-quality `dropShare` of the images (rounded up; ties broken by index) are set aside with all their pairs.
 */
export function qualityUtility(qualities: number[], pairs: ScoredPair[], dropShare = 0.05): QualityUtility {
  const genuine = pairs.filter((p) => p.genuine);
  const genuineSpearman = spearman(
    genuine.map((p) => Math.min(qualities[p.a]!, qualities[p.b]!)),
    genuine.map((p) => p.score),
  );
  const dropped = Math.ceil(dropShare * qualities.length);
  const order = qualities.map((q, i) => ({ q, i })).sort((x, y) => x.q - y.q || x.i - y.i);
  const out = new Uint8Array(qualities.length);
  for (const { i } of order.slice(0, dropped)) out[i] = 1;
  const kept = pairs.filter((p) => !out[p.a] && !out[p.b]);
  const eerAfterDrop = errorRates(
    kept.filter((p) => p.genuine).map((p) => p.score),
    kept.filter((p) => !p.genuine).map((p) => p.score),
  ).eer;
  return { genuineSpearman, eerAfterDrop, dropped };
}
