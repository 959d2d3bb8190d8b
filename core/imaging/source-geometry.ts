import type { DecodedImage } from './decode.js';

/** A rectangle in pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A box found in the decoded pixels, in the pixels of the upload itself (an image decoded at an engine's working
 * size is scaled back and its offset added), rounded: what clients draw on the image they sent.
 */
export function toSourceBox<B extends PixelBox>(box: B, image: DecodedImage): B {
  const scale = image.scale ?? 1;
  const dx = image.offset?.x ?? 0;
  const dy = image.offset?.y ?? 0;
  if (scale === 1 && dx === 0 && dy === 0) return box;
  return {
    ...box,
    x: Math.round(box.x / scale + dx),
    y: Math.round(box.y / scale + dy),
    width: Math.round(box.width / scale),
    height: Math.round(box.height / scale),
  };
}

/** A length in decoded pixels, in the upload's pixels. */
export function toSourceLength(length: number, image: DecodedImage): number {
  return length / (image.scale ?? 1);
}
