/**
 * Find one registered reference mark on a card: ORB matches (ratio test), RANSAC homography, and a plausibility
 * check of the projected outline. Pure code; the detector runs it in the feature worker.
 */
import { matchRatio } from '../orb/hamming.js';
import type { OrbFeatures } from '../orb/orb.js';
import { isPlausibleOutline, projectOutline } from '../geometry/homography.js';
import { ransacHomography } from '../geometry/ransac.js';
import type { Region } from '../types.js';
import type { GrayImage } from '../orb/gray-image.js';
import { templateCorrelation, type MarkTemplate } from './verify.js';

/** Keypoints of a registered mark and the size of its image. */
export interface MarkFeatures extends OrbFeatures {
  width: number;
  height: number;
  /** Small grey picture of the mark for the photometric check (absent: inliers alone decide). */
  template?: MarkTemplate;
}

/** Outcome of matching one mark against one card. */
export interface MarkMatch {
  /** Putative matches after the ratio test. */
  matches: number;
  /** Matches consistent with the homography. */
  inliers: number;
  /** Mean reprojection error of the inliers, card pixels (null without a model). */
  meanError: number | null;
  /** Projected mark outline on the card (TL, TR, BR, BL), null when not found. */
  outline: [number, number][] | null;
  region: Region | null;
  /** Normalised cross-correlation of the mark's template with the card under the homography (null: not checked). */
  correlation: number | null;
  /** In [0,1]: the inlier score times the photometric factor; 0 when the geometry is implausible. */
  score: number;
}

/** Matching settings. */
export interface MarkMatchOptions {
  ratio: number;
  maxDistance: number;
  /** RANSAC threshold as a fraction of the card's diagonal. */
  thresholdFraction: number;
  /** Inlier count that maps to score 0.5. */
  halfScoreInliers: number;
}

/** Defaults measured on rendered cards (see docs/decisions.md). */
export const DEFAULT_MARK_MATCH: MarkMatchOptions = {
  ratio: 0.85,
  maxDistance: 80,
  thresholdFraction: 0.004,
  halfScoreInliers: 15,
};

/**
 * Map the template correlation to a factor in [0,1]: 0 up to 0.6, 1 from 0.9. Genuine prints measure 0.96-0.98
 * (rotated, scaled, blurred, darkened, warped); a look-alike under its best homography 0.44-0.70.
 */
export function photometricFactor(correlation: number | null): number {
  if (correlation === null) return 1;
  return Math.min(1, Math.max(0, (correlation - 0.6) / 0.3));
}

/** Map an inlier count to [0,1]: 0 below 5, half at `half`, approaching 1 beyond. */
export function inlierScore(inliers: number, half: number): number {
  if (inliers < 5) return 0;
  const x = inliers - 4;
  return x / (x + (half - 4));
}

/** Match a mark's features against a card's features. */
export function matchMark(
  mark: MarkFeatures,
  card: OrbFeatures,
  cardImage: GrayImage,
  options: MarkMatchOptions = DEFAULT_MARK_MATCH,
): MarkMatch {
  const cardSize = { width: cardImage.width, height: cardImage.height };
  const empty: MarkMatch = {
    matches: 0,
    inliers: 0,
    meanError: null,
    outline: null,
    region: null,
    correlation: null,
    score: 0,
  };
  const matches = matchRatio(mark.descriptors, card.descriptors, options.ratio, options.maxDistance);
  empty.matches = matches.length;
  if (matches.length < 4) return empty;
  const from = new Float64Array(matches.length * 2);
  const to = new Float64Array(matches.length * 2);
  matches.forEach((m, i) => {
    from[i * 2] = mark.points[m.query * 2]!;
    from[i * 2 + 1] = mark.points[m.query * 2 + 1]!;
    to[i * 2] = card.points[m.train * 2]!;
    to[i * 2 + 1] = card.points[m.train * 2 + 1]!;
  });
  const threshold = Math.max(2.5, Math.hypot(cardSize.width, cardSize.height) * options.thresholdFraction);
  const accept = (h: ArrayLike<number>): boolean => {
    const quad = projectOutline(h, mark.width, mark.height);
    return quad !== null && isPlausibleOutline(quad);
  };
  const fit = ransacHomography({ from, to }, { threshold, accept });
  if (!fit) return empty;
  const outline = projectOutline(fit.homography, mark.width, mark.height);
  const plausible = outline !== null && isPlausibleOutline(outline);
  const result: MarkMatch = { ...empty, inliers: fit.inliers.length, meanError: round(fit.meanError) };
  if (!plausible || !outline) return result;
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const x0 = Math.max(0, Math.min(...xs));
  const y0 = Math.max(0, Math.min(...ys));
  const x1 = Math.min(cardSize.width, Math.max(...xs));
  const y1 = Math.min(cardSize.height, Math.max(...ys));
  if (x1 - x0 < 8 || y1 - y0 < 8) return result;
  result.outline = outline.map(([x, y]) => [round(x), round(y)]);
  result.region = {
    x: Math.round(x0),
    y: Math.round(y0),
    width: Math.round(x1 - x0),
    height: Math.round(y1 - y0),
  };
  const correlation = mark.template
    ? templateCorrelation(mark.template, mark, fit.homography, cardImage)
    : null;
  result.correlation = correlation === null ? null : round(correlation);
  result.score = inlierScore(fit.inliers.length, options.halfScoreInliers) * photometricFactor(correlation);
  return result;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
