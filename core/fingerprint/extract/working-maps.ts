import { likenessFromMaps, type FingerprintLikeness } from '../likeness/index.js';
import type { GrayImage } from '../types.js';
import { estimatePeriod } from './frequency.js';
import { estimateOrientation, type OrientationField } from './orientation.js';
import { toWorkingResolution, type FloatImage } from './resample.js';
import { segment, type ForegroundMask } from './segmentation.js';

/** The image the extractor works on, its maps, and whether it is a fingerprint at all. */
export interface WorkingMaps {
  img: FloatImage;
  field: OrientationField;
  seg: ForegroundMask;
  period: Float32Array;
  likeness: FingerprintLikeness;
}

/**
 * The working image at 500 dpi and its orientation, foreground and ridge-period maps, and the likeness judged from
 * them (computed once for both).
 */
export function workingMaps(image: GrayImage, dpi: number): WorkingMaps {
  const img = toWorkingResolution(image, dpi);
  const field = estimateOrientation(img);
  const seg = segment(img, field.energy);
  const periodicity = {
    strength: new Float32Array(field.cols * field.rows),
    energy: new Float32Array(field.cols * field.rows),
  };
  const period = estimatePeriod(img, field, seg.mask, periodicity);
  const likeness = likenessFromMaps(img, field, seg, periodicity);
  return { img, field, seg, period, likeness };
}

/**
 * Median ridge period (pixels) the minutiae are read at: the extractor's pixel constants (8 px blocks, the 10 px
 * along-ridge smoothing, thinning, spur and gap lengths) read finer ridges less well; in a screen of fixed
 * enlargements of the five dev sets, 1.14-1.25 (about 10.4-11.5 px a ridge) read best, with the prints' own
 * geometry kept.
 */
const FINE_PERIOD = 10.4;
/** The most a print is enlarged (a 440 dpi sensor's fine ridges at about 7 px). */
const MAX_ENLARGEMENT = 1.5;
/** The enlarged working image stays within a 640 x 480 print's pixels, which the extraction time is set for. */
const MAX_WORKING_PIXELS = 640 * 480;

/** The median of the ridge periods of the print's blocks, or undefined without any. */
function medianPeriod(period: Float32Array, mask: Uint8Array): number | undefined {
  const values: number[] = [];
  for (let b = 0; b < period.length; b++) if (mask[b]) values.push(period[b]!);
  values.sort((a, c) => a - c);
  return values[values.length >> 1];
}

/**
 * How much to enlarge the 500-dpi working image before reading minutiae: up to a median ridge period of
 * FINE_PERIOD, at most MAX_ENLARGEMENT and MAX_WORKING_PIXELS; 1 for prints whose ridges are already as wide.
 */
export function enlargement(maps: WorkingMaps): number {
  const median = medianPeriod(maps.period, maps.seg.mask);
  if (!median) return 1;
  const room = Math.sqrt(MAX_WORKING_PIXELS / (maps.img.width * maps.img.height));
  const factor = Math.min(MAX_ENLARGEMENT, room, FINE_PERIOD / median);
  // Below 2% the resampling would blur without widening the ridges by a pixel anywhere.
  return factor >= 1.02 ? factor : 1;
}

/**
 * The maps minutiae are read on: `maps` itself, or the image enlarged by `factor` (resampled from the original at
 * `dpi`) with its own orientation, foreground and period maps.
 */
export function readingMaps(
  image: GrayImage,
  dpi: number,
  maps: WorkingMaps,
  factor: number,
): Omit<WorkingMaps, 'likeness'> {
  if (factor === 1) return maps;
  const img = toWorkingResolution(image, dpi / factor);
  const field = estimateOrientation(img);
  const seg = segment(img, field.energy);
  return { img, field, seg, period: estimatePeriod(img, field, seg.mask) };
}
