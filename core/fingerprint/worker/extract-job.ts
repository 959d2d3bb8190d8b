import { rgbToGray } from '../../imaging/decode.js';
import { extractFeatures } from '../extract/index.js';
import type { FingerprintFeatures } from '../types.js';

/** The work a pool worker does: RGB to grey, then minutiae extraction. Also used in-thread when the pool has size 0. */
export function runExtraction(
  rgb: Uint8Array,
  width: number,
  height: number,
  dpi?: number,
): FingerprintFeatures {
  const gray = rgbToGray(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), width, height);
  return extractFeatures({ width, height, data: gray }, dpi === undefined ? {} : { dpi });
}
