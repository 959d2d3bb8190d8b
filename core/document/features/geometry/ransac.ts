/**
 * RANSAC estimation of a homography from putative matches: random minimal samples of 4, inliers within a
 * reprojection threshold, adaptive iteration count, then a least-squares refit on the inliers. Deterministic
 * (seeded), so the same card gives the same answer. Pure code.
 */
import { fitHomography, project, type Correspondences, type Homography } from './homography.js';

/** A fitted model and its support. */
export interface RansacResult {
  homography: Homography;
  inliers: number[];
  /** Mean reprojection error of the inliers, in destination pixels. */
  meanError: number;
}

/** RANSAC settings. */
export interface RansacOptions {
  /** Inlier reprojection threshold in destination pixels. */
  threshold: number;
  maxIterations: number;
  /** Probability of having drawn at least one all-inlier sample when stopping early. */
  confidence: number;
  seed: number;
  /** Optional model check run before scoring a sample's model (e.g. a plausible outline): rejected models never win. */
  accept?: (h: Homography) => boolean;
}

const DEFAULTS: Omit<RansacOptions, 'accept'> = {
  threshold: 5,
  maxIterations: 2000,
  confidence: 0.999,
  seed: 12345,
};

function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast and good enough to pick sample indices.
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function collinear(p: ArrayLike<number>, a: number, b: number, c: number): boolean {
  const area =
    (p[b * 2]! - p[a * 2]!) * (p[c * 2 + 1]! - p[a * 2 + 1]!) -
    (p[b * 2 + 1]! - p[a * 2 + 1]!) * (p[c * 2]! - p[a * 2]!);
  return Math.abs(area) < 1;
}

function degenerate(pairs: Correspondences, s: number[]): boolean {
  for (const pts of [pairs.from, pairs.to]) {
    for (let i = 0; i < 4; i++) if (collinear(pts, s[i]!, s[(i + 1) % 4]!, s[(i + 2) % 4]!)) return true;
  }
  return false;
}

/** Indices of pairs whose projection lands within `threshold`, and their mean error. */
export function scoreModel(
  pairs: Correspondences,
  h: Homography,
  threshold: number,
): { inliers: number[]; meanError: number } {
  const inliers: number[] = [];
  let total = 0;
  const n = pairs.from.length / 2;
  for (let i = 0; i < n; i++) {
    const p = project(h, pairs.from[i * 2]!, pairs.from[i * 2 + 1]!);
    if (!p) continue;
    const e = Math.hypot(p[0] - pairs.to[i * 2]!, p[1] - pairs.to[i * 2 + 1]!);
    if (e <= threshold) {
      inliers.push(i);
      total += e;
    }
  }
  return { inliers, meanError: inliers.length ? total / inliers.length : Infinity };
}

/** Best homography of the pairs, or null when fewer than 4 pairs or no sample gives a model. */
export function ransacHomography(
  pairs: Correspondences,
  options: Partial<RansacOptions> = {},
): RansacResult | null {
  const o = { ...DEFAULTS, ...options };
  const n = pairs.from.length / 2;
  if (n < 4) return null;
  const next = random(o.seed);
  let best: { inliers: number[]; meanError: number } = { inliers: [], meanError: Infinity };
  let bestH: Homography | null = null;
  let iterations = o.maxIterations;
  for (let it = 0; it < iterations; it++) {
    const sample: number[] = [];
    while (sample.length < 4) {
      const k = Math.floor(next() * n);
      if (!sample.includes(k)) sample.push(k);
    }
    if (degenerate(pairs, sample)) continue;
    const h = fitHomography(pairs, sample);
    if (!h || (o.accept && !o.accept(h))) continue;
    const scored = scoreModel(pairs, h, o.threshold);
    if (
      scored.inliers.length > best.inliers.length ||
      (scored.inliers.length === best.inliers.length && scored.meanError < best.meanError)
    ) {
      best = scored;
      bestH = h;
      const ratio = scored.inliers.length / n;
      const needed = Math.log(1 - o.confidence) / Math.log(Math.max(1e-12, 1 - Math.pow(ratio, 4)));
      iterations = Math.min(o.maxIterations, Math.max(50, Math.ceil(needed)));
    }
  }
  if (!bestH || best.inliers.length < 4) return null;
  // Refit on every inlier, then re-collect inliers once: the minimal-sample model is noisy.
  const refit = fitHomography(pairs, best.inliers);
  if (refit && (!o.accept || o.accept(refit))) {
    const rescored = scoreModel(pairs, refit, o.threshold);
    if (rescored.inliers.length >= best.inliers.length) return { homography: refit, ...rescored };
  }
  return { homography: bestH, ...best };
}
