/**
 * Photograph-like distortions of a rendered card (scale, rotation, blur, lighting, perspective) for robustness
 * tests and benchmarks. Adapter over sharp plus the pure warp.
 */
import sharp from 'sharp';
import { warpPerspective } from './warp.js';

/** Distortions to apply, in this order: perspective, scale, rotation, blur, brightness. */
export interface DistortOptions {
  /** Move the card corners inward by these fractions of the size (TL, TR, BR, BL), simulating a tilted camera. */
  perspective?: number;
  /** Resize factor. */
  scale?: number;
  /** Rotation in degrees (clockwise), on a grey background. */
  rotate?: number;
  /** Gaussian blur sigma in pixels. */
  blur?: number;
  /** Multiply intensities (0.5 = a dim room). */
  brightness?: number;
  /** Output JPEG quality (default 88). */
  quality?: number;
}

/** Apply distortions to a card image; returns JPEG bytes. */
export async function distortCard(image: Buffer, options: DistortOptions): Promise<Buffer> {
  let buffer = image;
  if (options.perspective) {
    const { data, info } = await sharp(buffer).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const k = options.perspective;
    // Left edge further away than the right: the left side shrinks vertically, as with a camera turned left.
    const corners = [
      [width * k * 0.5, height * k],
      [width * (1 - k * 0.2), height * k * 0.2],
      [width * (1 - k * 0.2), height * (1 - k * 0.2)],
      [width * k * 0.5, height * (1 - k)],
    ] as const;
    const warped = warpPerspective({ data, width, height }, corners, width, height);
    buffer = await sharp(warped.data, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
  }
  let pipeline = sharp(buffer);
  if (options.scale && options.scale !== 1) {
    const meta = await sharp(buffer).metadata();
    pipeline = pipeline.resize(Math.round((meta.width ?? 0) * options.scale));
    buffer = await pipeline.png().toBuffer();
    pipeline = sharp(buffer);
  }
  if (options.rotate) pipeline = pipeline.rotate(options.rotate, { background: '#c8c8c8' });
  if (options.blur) pipeline = pipeline.blur(options.blur);
  if (options.brightness !== undefined) pipeline = pipeline.linear(options.brightness, 0);
  return pipeline.jpeg({ quality: options.quality ?? 88 }).toBuffer();
}
