import type { DecodedImage } from './decode.js';

/** A rectangle in whole pixels, inside the image. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The pixels of `rect` as a new image, copied row by row. Handing sharp a whole large card to cut a small window
 * costs a copy of the whole card per call; this costs the window only.
 */
export function cropRgb(image: DecodedImage, rect: PixelRect): DecodedImage {
  const { x, y, width, height } = rect;
  if (x < 0 || y < 0 || width < 1 || height < 1 || x + width > image.width || y + height > image.height)
    throw new RangeError(
      `Crop ${width}x${height}+${x}+${y} is outside the ${image.width}x${image.height} image.`,
    );
  const rgb = Buffer.allocUnsafe(width * height * 3);
  const rowBytes = width * 3;
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * image.width + x) * 3;
    image.rgb.copy(rgb, row * rowBytes, from, from + rowBytes);
  }
  return { format: image.format, width, height, rgb };
}
