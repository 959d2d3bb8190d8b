import { estimatePeriod, type Periodicity } from '../extract/frequency.js';
import { estimateOrientation, type OrientationField } from '../extract/orientation.js';
import { toWorkingResolution, WORKING_DPI, type FloatImage } from '../extract/resample.js';
import { segment, type ForegroundMask } from '../extract/segmentation.js';
import type { GrayImage, LikenessVerdict } from '../types.js';
import { ridgeFeatures, type RidgeFeatures } from './ridge-features.js';

/** Whether an image shows a fingerprint (score 0-100, LIKENESS_PASS and above passes), why, and what was measured. */
export interface FingerprintLikeness extends LikenessVerdict {
  features: RidgeFeatures;
}

/** The score at and above which an image is taken for a fingerprint. */
export const LIKENESS_PASS = 50;
/**
 * Each feature's value that alone would reach the pass mark: ridgeAnisotropy / 0.6 + ridgeRegionShare / 1.0 +
 * structureShare / 1.7 >= 1 passes. The weights are a logistic fit separating the prints of the five dev sets from
 * 166 face photos, liveness samples and identity documents; the mark sits midway between the highest of the 8,800
 * face, liveness and document images of the evaluation data (0.92, most of them not in the fit) and the lowest print
 * (1.10).
 */
const ANISOTROPY_SCALE = 0.6;
const REGION_SCALE = 1.0;
const STRUCTURE_SCALE = 1.7;
/** Fewer foreground blocks than this (a patch about 80 px across) cannot hold a usable print. */
const MIN_FOREGROUND_BLOCKS = 100;
/**
 * A print is one region of consistently oriented ridges: under this share of the foreground there is none, whatever
 * else repeats (lattices, dotted screens, checkerboards, noise and text hold almost none; the prints of the dev sets
 * at least 0.11).
 */
const MIN_REGION_SHARE = 0.05;

/**
 * Decide from the ridge features whether the image is a fingerprint: parallel ridges at a fingerprint's spacing over
 * most of the contact area, in one connected region, on an otherwise plain background.
 */
export function judgeLikeness(features: RidgeFeatures): FingerprintLikeness {
  const { ridgeAnisotropy, ridgeRegionShare, structureShare, foregroundBlocks } = features;
  const strength =
    ridgeAnisotropy / ANISOTROPY_SCALE + ridgeRegionShare / REGION_SCALE + structureShare / STRUCTURE_SCALE;
  const blank = foregroundBlocks < MIN_FOREGROUND_BLOCKS;
  // Without a ridge region the score falls with it, so that it stays under the pass mark.
  const gate = Math.min(1, ridgeRegionShare / MIN_REGION_SHARE);
  const score = blank ? 0 : Math.floor(Math.min(100, LIKENESS_PASS * strength) * gate);
  const isFingerprint = score >= LIKENESS_PASS;
  let reason: string;
  if (blank) {
    reason = 'The image is blank or nearly uniform: there is no fingerprint in it.';
  } else if (isFingerprint) {
    reason = 'Fingerprint ridges cover the contact area.';
  } else if (ridgeAnisotropy < 0.25 * ANISOTROPY_SCALE || ridgeRegionShare < MIN_REGION_SHARE) {
    reason =
      'The image has no pattern of parallel ridges at a fingerprint’s spacing: it looks like a photo, a document, text or noise.';
  } else if (structureShare < 0.6) {
    reason =
      'Most of what the image shows lies outside its ridge-like part: it looks like a photo or a document.';
  } else {
    reason = 'Ridge-like lines cover too little of the image to be a fingerprint.';
  }
  return { score, isFingerprint, reason, features };
}

/** The likeness from the extractor's maps of the image at 500 dpi (what extractFeatures uses, to compute them once). */
export function likenessFromMaps(
  image: FloatImage,
  field: OrientationField,
  seg: ForegroundMask,
  periodicity: Periodicity,
): FingerprintLikeness {
  return judgeLikeness(ridgeFeatures(image, field, seg, periodicity));
}

/**
 * Is this grey image a fingerprint? A pure function of the pixels: ridge orientation, foreground and ridge periodicity
 * as the extractor measures them (resampled to 500 dpi when `dpi` is given), judged by judgeLikeness.
 */
export function assessLikeness(image: GrayImage, options?: { dpi?: number }): FingerprintLikeness {
  const img = toWorkingResolution(image, options?.dpi ?? WORKING_DPI);
  const field = estimateOrientation(img);
  const seg = segment(img, field.energy);
  const periodicity = {
    strength: new Float32Array(field.cols * field.rows),
    energy: new Float32Array(field.cols * field.rows),
  };
  estimatePeriod(img, field, seg.mask, periodicity);
  return likenessFromMaps(img, field, seg, periodicity);
}
