/**
 * Bring a large upload down to the size a detector works at, with sharp (native, off the event loop), before
 * its pixels are copied to the feature worker: a 40-megapixel photo would otherwise cost 120 MB per copy.
 */
import sharp from 'sharp';
import type { DecodedImage } from '../../imaging/decode.js';
import type { Region } from './types.js';

/** An image no larger than asked, and the factor that maps its pixels back to the original's. */
export interface Fitted {
  image: DecodedImage;
  /** Original pixels per fitted pixel (1 when unchanged). */
  factor: number;
}

/** Fit an image within `maxSide` pixels on its longest side (never enlarging). */
export async function fitWithin(image: DecodedImage, maxSide: number): Promise<Fitted> {
  const long = Math.max(image.width, image.height);
  if (long <= maxSide) return { image, factor: 1 };
  const { data, info } = await sharp(image.rgb, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(image.width >= image.height ? maxSide : null, image.height > image.width ? maxSide : null)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: { format: image.format, width: info.width, height: info.height, rgb: data },
    factor: image.width / info.width,
  };
}

/** A region of the fitted image in the original's pixels. */
export function scaleRegion(region: Region | null, factor: number): Region | null {
  if (!region || factor === 1) return region;
  return {
    x: Math.round(region.x * factor),
    y: Math.round(region.y * factor),
    width: Math.round(region.width * factor),
    height: Math.round(region.height * factor),
  };
}
