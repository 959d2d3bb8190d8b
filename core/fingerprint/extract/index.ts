import { CoreError } from '../../errors.js';
import { encodeMask } from '../match/extra.js';
import { coarseOrientation, coarsePeriod } from './coarse-map.js';
import type { FingerprintFeatures, GrayImage, Minutia } from '../types.js';
import { BLOCK, sampleGrid } from './block-grid.js';
import { enhance } from './enhance.js';
import { removeSpurious } from './filter.js';
import { estimatePeriod } from './frequency.js';
import { detectMinutiae } from './minutiae.js';
import { estimateOrientation } from './orientation.js';
import { imageQuality } from './quality.js';
import { toWorkingResolution, WORKING_DPI } from './resample.js';
import { segment } from './segmentation.js';
import { starRidgeCounts } from './ridge-count.js';
import { thin } from './skeleton.js';

/** More minutiae than this are mostly noise; the best-quality ones are kept. */
const MAX_MINUTIAE = 80;
/** Share of the mean filter response a pixel must fall below zero by to count as ridge. */
const RIDGE_MARGIN = 0.05;

function meanMagnitude(values: Float32Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === 0) continue;
    sum += Math.abs(v);
    n++;
  }
  return n > 0 ? sum / n : 0;
}

/** Minutiae closer than this many blocks to the background are cut ridges, not real endings. */
const MIN_DEPTH = 2;

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
  const img = toWorkingResolution(image, dpi);
  const { width, height } = img;
  const field = estimateOrientation(img);
  const seg = segment(img, field.energy);
  const period = estimatePeriod(img, field, seg.mask);
  const enhanced = enhance(img, field, period, seg.mask);
  const skeleton = new Uint8Array(width * height);
  const margin = RIDGE_MARGIN * meanMagnitude(enhanced);
  // Where the filter has almost no signal (gaps, flat smudges) call it valley rather than extend a ridge into it.
  for (let i = 0; i < skeleton.length; i++) skeleton[i] = enhanced[i]! < -margin ? 1 : 0;
  const binary = skeleton.slice();
  thin(skeleton, width, height);
  const blockOf = (x: number, y: number): number => ((y / BLOCK) | 0) * seg.cols + ((x / BLOCK) | 0);
  const raw = removeSpurious(
    detectMinutiae(skeleton, width, height, (x, y) => seg.depth[blockOf(x, y)]! >= MIN_DEPTH),
    width,
  );
  let minutiae: Minutia[] = raw.map((m) => {
    const b = blockOf(m.x, m.y);
    const coherence = Math.min(1, field.coherence[b]! / 0.8);
    const depth = Math.min(1, seg.depth[b]! / 5);
    // The traced direction gives the sense; the smoothed ridge orientation gives the angle. A walk of a few skeleton
    // pixels wobbles by tens of degrees, the orientation field does not (average EER 6.2% -> 5.7%).
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
  });
  if (minutiae.length > MAX_MINUTIAE)
    minutiae = [...minutiae].sort((a, b) => b.quality - a.quality).slice(0, MAX_MINUTIAE);
  const map = coarseOrientation(field, seg.mask, width, height);
  const features: FingerprintFeatures = {
    width,
    height,
    dpi: WORKING_DPI,
    minutiae,
    quality: imageQuality(field.coherence, seg.mask, minutiae.length),
  };
  if (map.cols <= 255 && map.rows <= 255) {
    const ridges = starRidgeCounts(
      binary,
      width,
      (x, y) => !!seg.mask[blockOf(x, y)],
      minutiae.map((m) => m.x),
      minutiae.map((m) => m.y),
    );
    features.extra = encodeMask(
      map,
      ridges,
      coarsePeriod(period, seg.mask, seg.cols, seg.rows, width, height),
    );
  }
  return features;
}
