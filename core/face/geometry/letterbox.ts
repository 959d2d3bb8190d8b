import type { FaceBox } from '../types.js';

/** How an image was scaled and padded into a fixed-size model input. */
export interface Letterbox {
  /** Scale from source pixels to input pixels (same on both axes). */
  scale: number;
  /** Size of the scaled image inside the input. */
  width: number;
  height: number;
  /** Padding on the left and top, in input pixels. */
  padX: number;
  padY: number;
}

/**
 * Fit a `srcWidth x srcHeight` image into `dstWidth x dstHeight` keeping its aspect ratio, centred, so the detector
 * never sees faces squashed by a plain resize (a portrait selfie into 320x240 would be 2.4x squeezed).
 */
export function letterbox(
  srcWidth: number,
  srcHeight: number,
  dstWidth: number,
  dstHeight: number,
): Letterbox {
  const scale = Math.min(dstWidth / srcWidth, dstHeight / srcHeight);
  const width = Math.max(1, Math.min(dstWidth, Math.round(srcWidth * scale)));
  const height = Math.max(1, Math.min(dstHeight, Math.round(srcHeight * scale)));
  return {
    scale,
    width,
    height,
    padX: Math.floor((dstWidth - width) / 2),
    padY: Math.floor((dstHeight - height) / 2),
  };
}

/** Map a box from letterboxed input pixels back to source pixels. */
export function unletterboxBox(box: FaceBox, lb: Letterbox): FaceBox {
  return {
    x: (box.x - lb.padX) / lb.scale,
    y: (box.y - lb.padY) / lb.scale,
    width: box.width / lb.scale,
    height: box.height / lb.scale,
  };
}
