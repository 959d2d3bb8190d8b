/**
 * Feature extraction for marks and cards at the sizes matching works best at: cards are brought to a working
 * width (small photos upscaled, big ones reduced), marks are padded so keypoints near their outline can be
 * described. Pure code.
 */
import { extractOrb, type OrbFeatures, type OrbOptions } from '../orb/orb.js';
import { resizeBilinear, type GrayImage } from '../orb/gray-image.js';
import type { MarkFeatures } from './match-mark.js';
import { makeTemplate } from './verify.js';

/** ORB settings for cards (measured on rendered cards, see docs/decisions.md). */
export const CARD_ORB: OrbOptions = {
  maxFeatures: 2500,
  levels: 6,
  scaleFactor: 1.25,
  fastThreshold: 12,
  cellSize: 32,
};
/** ORB settings for reference marks: more levels, so a large registered image still meets a small print. */
export const MARK_ORB: OrbOptions = {
  maxFeatures: 700,
  levels: 9,
  scaleFactor: 1.25,
  fastThreshold: 12,
  cellSize: 24,
};

/** Longest side cards are brought to before extraction. */
export const CARD_WORKING_SIZE = { min: 1000, max: 1280 } as const;

/** Replicate-pad an image by `pad` pixels on each side. */
export function padImage(image: GrayImage, pad: number): GrayImage {
  const width = image.width + pad * 2;
  const height = image.height + pad * 2;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.max(0, y - pad));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.max(0, x - pad));
      data[y * width + x] = image.data[sy * image.width + sx]!;
    }
  }
  return { data, width, height };
}

function scalePoints(features: OrbFeatures, factor: number, shift: number): OrbFeatures {
  const points = new Float32Array(features.points.length);
  for (let i = 0; i < points.length; i++) points[i] = (features.points[i]! - shift) * factor;
  return { ...features, points };
}

/** Keypoints of a registered mark image, in that image's pixels. */
export function extractMarkFeatures(image: GrayImage, options: OrbOptions = MARK_ORB): MarkFeatures {
  // Marks larger than a card's working size gain nothing: reduce them first.
  const long = Math.max(image.width, image.height);
  const factor = long > 640 ? 640 / long : 1;
  const base =
    factor < 1
      ? resizeBilinear(image, Math.round(image.width * factor), Math.round(image.height * factor))
      : image;
  const pad = Math.round(Math.max(base.width, base.height) * 0.1) + 8;
  const features = extractOrb(padImage(base, pad), options);
  return {
    ...scalePoints(features, 1 / factor, pad),
    width: image.width,
    height: image.height,
    template: makeTemplate(base),
  };
}

/** Keypoints of a card photo, in the photo's pixels, extracted at the working size. */
export function extractCardFeatures(image: GrayImage, options: OrbOptions = CARD_ORB): OrbFeatures {
  const long = Math.max(image.width, image.height);
  const target = Math.min(CARD_WORKING_SIZE.max, Math.max(CARD_WORKING_SIZE.min, long));
  const factor = target / long;
  const working =
    Math.abs(factor - 1) < 0.02
      ? image
      : resizeBilinear(image, Math.round(image.width * factor), Math.round(image.height * factor));
  const features = extractOrb(working, options);
  return factor === 1 ? features : scalePoints(features, 1 / (working.width / image.width), 0);
}
