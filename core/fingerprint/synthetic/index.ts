import type { DecodedImage } from '../../imaging/decode.js';
import type { GrayImage } from '../types.js';
import { renderImpression, type ImpressionOptions } from './impression.js';
import { cachedMaster, DEFAULT_SIZE } from './master.js';

export { encodeGrayBmp, encodeGrayPng } from './image-writers.js';
export { generateMaster, cachedMaster, type MasterPrint } from './master.js';
export { renderImpression, type ImpressionOptions } from './impression.js';
export { FINGER_CLASSES, type FingerClass } from './orientation.js';
export { createPrng, mixSeed, type Prng } from './prng.js';
export { syntheticFeatureRecord } from './minutiae-sets.js';

/** Size and distortion of a synthetic impression. */
export interface SyntheticOptions extends ImpressionOptions {
  width?: number;
  height?: number;
}

/**
 * Impression `impression` (0, 1, 2, ...) of synthetic finger `fingerSeed`: the same arguments always give the
 * same pixels. Different seeds are different fingers; different impressions of one seed are genuine pairs.
 */
export function syntheticFingerprint(
  fingerSeed: number,
  impression: number,
  options: SyntheticOptions = {},
): GrayImage {
  const master = cachedMaster(
    fingerSeed,
    options.width ?? DEFAULT_SIZE.width,
    options.height ?? DEFAULT_SIZE.height,
  );
  return renderImpression(master, impression, options);
}

/** A synthetic impression as the upload decoder would return it (grey replicated to RGB), for tests and demos. */
export function syntheticUpload(
  fingerSeed: number,
  impression: number,
  options: SyntheticOptions = {},
): DecodedImage {
  const image = syntheticFingerprint(fingerSeed, impression, options);
  const rgb = Buffer.alloc(image.width * image.height * 3);
  for (let i = 0; i < image.data.length; i++) rgb.fill(image.data[i] ?? 0, i * 3, i * 3 + 3);
  return { format: 'png', width: image.width, height: image.height, rgb, dpi: 500 };
}
