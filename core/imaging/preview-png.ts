import sharp from 'sharp';
import type { DecodedImage } from './decode.js';

/** A preview a browser can draw, whatever the upload's format (browsers draw neither TIFF nor every BMP). */
export interface PreviewPng {
  /** `data:image/png;base64,...` */
  url: string;
  width: number;
  height: number;
}

/**
 * A decoded upload as a grey PNG no larger than `maxSide` pixels a side, for the console to draw overlays on; sent
 * back to the operator who uploaded it, never stored or logged.
 */
export async function greyPreviewPng(image: DecodedImage, maxSide = 640): Promise<PreviewPng> {
  const { data, info } = await sharp(image.rgb, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return { url: `data:image/png;base64,${data.toString('base64')}`, width: info.width, height: info.height };
}
