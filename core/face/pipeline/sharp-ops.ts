import sharp from 'sharp';
import type { Letterbox } from '../geometry/letterbox.js';
import type { Rotation } from '../geometry/rotation.js';
import type { FaceBox, Raster } from '../types.js';

/** Adapters over sharp (libvips runs off the event loop): resizing, rotating and cropping RGB rasters. */

function input(src: Raster): sharp.Sharp {
  return sharp(src.data, { raw: { width: src.width, height: src.height, channels: src.channels as 1 | 3 } });
}

async function collect(pipeline: sharp.Sharp): Promise<Raster> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Resize into a letterboxed model input, padding with mid grey (zero after the detector's normalisation). */
export async function letterboxRaster(
  src: Raster,
  lb: Letterbox,
  width: number,
  height: number,
): Promise<Raster> {
  return collect(
    input(src)
      .resize(lb.width, lb.height, { fit: 'fill', kernel: 'linear' })
      .extend({
        left: lb.padX,
        top: lb.padY,
        right: width - lb.width - lb.padX,
        bottom: height - lb.height - lb.padY,
        background: { r: 127, g: 127, b: 127 },
      }),
  );
}

/** Rotate clockwise by a quarter-turn multiple. */
export async function rotateRaster(src: Raster, rotation: Rotation): Promise<Raster> {
  if (rotation === 0) return src;
  return collect(input(src).rotate(rotation));
}

/** Integer rectangle of `box` intersected with the image, or undefined when they do not overlap. */
export function clampRect(box: FaceBox, width: number, height: number): FaceBox | undefined {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const x2 = Math.min(width, Math.ceil(box.x + box.width));
  const y2 = Math.min(height, Math.ceil(box.y + box.height));
  if (x2 - x < 2 || y2 - y < 2) return undefined;
  return { x, y, width: x2 - x, height: y2 - y };
}

/** A region of an image, possibly downscaled: `image = chip / scale + (offsetX, offsetY)`. */
export interface Chip {
  raster: Raster;
  offsetX: number;
  offsetY: number;
  scale: number;
}

/**
 * Cut `region` (clamped to the image) and downscale it with a proper filter so that its longer side is at most
 * `maxSide`: later bilinear crops from the chip then never alias, whatever the photo's resolution.
 */
export async function cutChip(src: Raster, region: FaceBox, maxSide: number): Promise<Chip | undefined> {
  const rect = clampRect(region, src.width, src.height);
  if (!rect) return undefined;
  const scale = Math.min(1, maxSide / Math.max(rect.width, rect.height));
  let pipeline = input(src).extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height });
  if (scale < 1) {
    pipeline = pipeline.resize(
      Math.max(1, Math.round(rect.width * scale)),
      Math.max(1, Math.round(rect.height * scale)),
      {
        fit: 'fill',
      },
    );
  }
  const raster = await collect(pipeline);
  // The rounded size defines the true scale of the chip.
  return { raster, offsetX: rect.x, offsetY: rect.y, scale: raster.width / rect.width };
}

/** Crop `rect` (inside the image) and resize it to exactly `width x height`. */
export async function cropResize(src: Raster, rect: FaceBox, width: number, height: number): Promise<Raster> {
  return collect(
    input(src)
      .extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height })
      .resize(width, height, { fit: 'fill' }),
  );
}

/** Mirror left to right. */
export async function flopRaster(src: Raster): Promise<Raster> {
  return collect(input(src).flop());
}

/**
 * Extend the image by `pad` pixels on every side by repeating its border pixels, then resize `rect` of the extended
 * image (coordinates of the extended image) to `size x size` with bilinear interpolation (OpenCV's default, which the
 * liveness model was trained with).
 */
export async function padCopyCropResize(
  src: Raster,
  rect: FaceBox,
  pad: number,
  size: number,
): Promise<Raster> {
  const extended = await collect(
    input(src).extend({ left: pad, top: pad, right: pad, bottom: pad, extendWith: 'copy' }),
  );
  return collect(
    input(extended)
      .extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height })
      .resize(size, size, { fit: 'fill', kernel: 'linear' }),
  );
}

/** Resize to exactly `width x height` (area-filtered downscale). */
export async function resizeRaster(src: Raster, width: number, height: number): Promise<Raster> {
  return collect(input(src).resize(width, height, { fit: 'fill' }));
}
