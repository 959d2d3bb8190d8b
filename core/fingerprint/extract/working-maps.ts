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
