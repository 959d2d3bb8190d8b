import { CoreError } from '../../errors.js';
import { encodeMask } from '../template/extra.js';
import { coarseOrientation, coarsePeriod } from './coarse-map.js';
import type { FingerprintFeatures, GrayImage, Minutia } from '../types.js';
import { BLOCK, sampleGrid } from './block-grid.js';
import { enhance } from './enhance.js';
import { removeSpurious } from './filter.js';
import { detectMinutiae, type RawMinutia } from './minutiae.js';
import { mergeMinutiae } from './merge.js';
import type { OrientationField } from './orientation.js';
import { imageQuality } from './quality.js';
import { WORKING_DPI } from './resample.js';
import type { ForegroundMask } from './segmentation.js';
import { starRidgeCounts } from './ridge-count.js';
import { thin } from './skeleton.js';
import { enlargement, readingMaps, workingMaps } from './working-maps.js';

/** More minutiae than this are mostly noise; the best-quality ones are kept. */
const MAX_MINUTIAE = 80;
/**
 * Shares of the mean filter response a pixel must fall below zero by to count as ridge. The enhanced image is read
 * at each and the minutiae merged (merge.ts), so a break or bridge one threshold sees and the other does not stays a
 * hypothesis for the matcher; a third reading pushed extraction over its time limit.
 */
const RIDGE_MARGINS = [0.05, 0.1];

function meanMagnitude(values: Float32Array): number {
  let sum = 0;
  let n = 0;
  // Branch-free (zeros add nothing to the sum): ridge and valley pixels alternate too fast for branch prediction.
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    sum += Math.abs(v);
    n += +(v !== 0);
  }
  return n > 0 ? sum / n : 0;
}

/** Minutiae closer than this many blocks to the background are cut ridges, not real endings. */
const MIN_DEPTH = 2;

/** 1 where the enhanced signal is below -margin (ridge), else 0. */
function binarise(enhanced: Float32Array, margin: number): Uint8Array {
  const out = new Uint8Array(enhanced.length);
  // Where the filter has almost no signal (gaps, flat smudges) call it valley rather than extend a ridge into it.
  for (let i = 0; i < out.length; i++) out[i] = +(enhanced[i]! < -margin);
  return out;
}

/** An ISO minutia from a skeleton one: angle from the smoothed orientation field, quality from the block. */
function toMinutia(m: RawMinutia, field: OrientationField, seg: ForegroundMask, block: number): Minutia {
  const coherence = Math.min(1, field.coherence[block]! / 0.8);
  const depth = Math.min(1, seg.depth[block]! / 5);
  // The traced direction gives the sense; the smoothed ridge orientation gives the angle. A walk of a few skeleton
  // pixels wobbles by tens of degrees, the orientation field does not.
  const c2 = sampleGrid(field.cos2, seg.cols, seg.rows, m.x, m.y);
  const s2 = sampleGrid(field.sin2, seg.cols, seg.rows, m.x, m.y);
  let dir = 0.5 * Math.atan2(s2, c2);
  if (Math.cos(dir - m.dir) < 0) dir += Math.PI;
  // ISO turns counter-clockwise on screen (mirror of image y-down), and an ending points back into its ridge.
  let angle = (3 * Math.PI - dir) % (2 * Math.PI);
  if (angle < 0) angle += 2 * Math.PI;
  return {
    x: m.x,
    y: m.y,
    angle,
    type: m.bifurcation ? 'bifurcation' : 'ending',
    quality: Math.max(1, Math.round(100 * coherence * (0.5 + 0.5 * depth))),
  };
}

/**
 * Extract minutiae from a grey fingerprint image. Synchronous and pure (runs in worker threads). Images at another
 * resolution are resampled to 500 dpi and the features are reported at 500 dpi. Coordinates and angles follow
 * ISO/IEC 19794-2 (origin top-left, y down, angle counter-clockwise from the x axis in [0, 2*PI)). A blank or
 * unusable image yields few or no minutiae and a low quality, never an exception.
 */
export function extractFeatures(image: GrayImage, options?: { dpi?: number }): FingerprintFeatures {
  const dpi = options?.dpi ?? WORKING_DPI;
  if (
    image.width < 32 ||
    image.height < 32 ||
    image.data.length < image.width * image.height ||
    !(dpi > 50)
  ) {
    throw new CoreError('UNPROCESSABLE', 'The fingerprint image is too small or malformed.');
  }
  const maps = workingMaps(image, dpi);
  const { width, height } = maps.img;
  const { likeness } = maps;
  const judged = { score: likeness.score, isFingerprint: likeness.isFingerprint, reason: likeness.reason };
  // Not a fingerprint: nothing to extract, and the callers refuse it.
  if (!likeness.isFingerprint)
    return { width, height, dpi: WORKING_DPI, minutiae: [], quality: 0, likeness: judged };
  // Fine ridges are read on an enlarged image; the minutiae and maps are reported at 500 dpi all the same.
  const factor = enlargement(maps);
  const { img, field, seg, period } = readingMaps(image, dpi, maps, factor);
  const enhanced = enhance(img, field, period, seg.mask);
  const scale = meanMagnitude(enhanced);
  const blockOf = (x: number, y: number): number => ((y / BLOCK) | 0) * seg.cols + ((x / BLOCK) | 0);
  const inside = (x: number, y: number): boolean => seg.depth[blockOf(x, y)]! >= MIN_DEPTH;
  // The first margin's binary image is the one ridges are counted on.
  const binary = binarise(enhanced, RIDGE_MARGINS[0]! * scale);
  const readings = RIDGE_MARGINS.map((margin, k) => {
    const skeleton = k === 0 ? binary.slice() : binarise(enhanced, margin * scale);
    thin(skeleton, img.width, img.height);
    return removeSpurious(detectMinutiae(skeleton, img.width, img.height, inside), img.width).map((m) =>
      toMinutia(m, field, seg, blockOf(m.x, m.y)),
    );
  });
  let read = mergeMinutiae(readings);
  if (read.length > MAX_MINUTIAE)
    read = [...read].sort((a, b) => b.quality - a.quality).slice(0, MAX_MINUTIAE);
  const minutiae =
    factor === 1
      ? read
      : read.map((m) => ({
          ...m,
          x: Math.min(width - 1, Math.round(m.x / factor)),
          y: Math.min(height - 1, Math.round(m.y / factor)),
        }));
  const map = coarseOrientation(field, seg.mask, width, height, factor);
  const features: FingerprintFeatures = {
    width,
    height,
    dpi: WORKING_DPI,
    minutiae,
    quality: imageQuality(field.coherence, seg.mask, minutiae.length, factor * factor),
    likeness: judged,
  };
  if (map.cols <= 255 && map.rows <= 255) {
    const ridges = starRidgeCounts(
      binary,
      img.width,
      (x, y) => !!seg.mask[blockOf(x, y)],
      minutiae.map((m) => m.x),
      minutiae.map((m) => m.y),
      read,
    );
    features.extra = encodeMask(
      map,
      ridges,
      coarsePeriod(period, seg.mask, seg.cols, seg.rows, width, height, factor),
    );
  }
  return features;
}
