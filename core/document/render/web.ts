/**
 * A document page as it is found on the web: shrunk until its print is a few pixels tall, its grey range sometimes
 * squeezed (a washed-out scan, a dim photo), and saved as JPEG.
 */
import sharp from 'sharp';

/** JPEG quality a web image is saved at. */
const WEB_QUALITY = 85;

/**
 * `page` shrunk by `scale`, its grey range squeezed into `range` levels that end at `light` (paper stays `light`,
 * black print becomes `light - range`), as JPEG at quality 85.
 */
export async function webImage(page: Buffer, scale: number, range = 255, light = 255): Promise<Buffer> {
  const { width } = await sharp(page).metadata();
  if (!width) throw new Error('webImage: the page has no size');
  return sharp(page)
    .removeAlpha()
    .resize({ width: Math.max(1, Math.round(width * scale)) })
    .linear(range / 255, light - range)
    .jpeg({ quality: WEB_QUALITY })
    .toBuffer();
}
