import sharp from 'sharp';
import { CoreError } from '../errors.js';
import { ACCEPTED_FORMATS, DEFAULT_IMAGE_LIMITS, type AcceptedFormat, type ImageLimits } from './limits.js';
import { decodeBmp, looksLikeBmp } from './bmp.js';
import { tiffIsComplete } from './tiff.js';

/** An upload that decoded fully: RGB pixels after EXIF orientation, never stored or logged. */
export interface DecodedImage {
  format: AcceptedFormat;
  width: number;
  height: number;
  /** Interleaved RGB, 8 bits per channel, `width * height * 3` bytes. */
  rgb: Buffer;
  /** Resolution from the file header in dots per inch, when the file carries one. */
  dpi?: number;
}

/** What `decodeImage` needs to know about the upload. */
export interface DecodeOptions {
  /** Request field name, echoed in errors. */
  field: string;
  limits?: ImageLimits;
}

sharp.cache(false);
// Each request decodes on its own; libvips threads would only fight the worker pool on 2 cores.
sharp.concurrency(1);

/**
 * Validate and decode an uploaded image: byte limit, format allow-list, pixel limit (checked from the header
 * before any pixel is decoded), a full decode that fails on truncated data, and EXIF orientation applied.
 */
export async function decodeImage(bytes: Buffer, options: DecodeOptions): Promise<DecodedImage> {
  const { field } = options;
  const limits = options.limits ?? DEFAULT_IMAGE_LIMITS;
  if (bytes.length === 0) throw new CoreError('FIELD_MISSING', `The ${field} file is empty.`, { field });
  if (bytes.length > limits.maxFileBytes) {
    throw new CoreError('FILE_TOO_LARGE', `The ${field} file exceeds ${limits.maxFileBytes} bytes.`, {
      field,
    });
  }
  if (looksLikeBmp(bytes)) {
    const raster = decodeBmp(bytes, field, limits.maxPixels);
    const decoded: DecodedImage = {
      format: 'bmp',
      width: raster.width,
      height: raster.height,
      rgb: raster.data,
    };
    if (raster.dpi) decoded.dpi = raster.dpi;
    return decoded;
  }
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    // A known signature whose header cannot be read is a cut-off upload, not a foreign format.
    if (hasImageSignature(bytes)) {
      throw new CoreError('IMAGE_TRUNCATED', `The ${field} image is truncated or corrupt.`, { field });
    }
    throw new CoreError(
      'IMAGE_UNSUPPORTED',
      `The ${field} file is not a supported image (JPEG, PNG, WebP, TIFF, BMP).`,
      {
        field,
      },
    );
  }
  const format = meta.format as string | undefined;
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    throw new CoreError(
      'IMAGE_UNSUPPORTED',
      `The ${field} image format ${format ?? 'unknown'} is not accepted.`,
      {
        field,
      },
    );
  }
  // libtiff reads strips past the end of the file as zeros without a word: a TIFF cut short must be caught here.
  if (format === 'tiff' && !tiffIsComplete(bytes)) {
    throw new CoreError('IMAGE_TRUNCATED', `The ${field} image is truncated or corrupt.`, { field });
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) {
    throw new CoreError('IMAGE_UNSUPPORTED', `The ${field} image has no dimensions.`, { field });
  }
  if (width * height > limits.maxPixels) {
    throw new CoreError(
      'IMAGE_TOO_MANY_PIXELS',
      `The ${field} image has more than ${limits.maxPixels} pixels.`,
      {
        field,
      },
    );
  }
  try {
    const { data, info } = await sharp(bytes, {
      failOn: 'truncated',
      limitInputPixels: limits.maxPixels,
      pages: 1,
    })
      .rotate()
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = info.channels === 3 ? data : toRgb(data, info.width, info.height, info.channels);
    const decoded: DecodedImage = {
      format: format as AcceptedFormat,
      width: info.width,
      height: info.height,
      rgb,
    };
    if (meta.density && meta.density > 0) decoded.dpi = meta.density;
    return decoded;
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    if (/truncat|premature|end of|corrupt|unexpected end|short read|read error/i.test(text)) {
      throw new CoreError('IMAGE_TRUNCATED', `The ${field} image is truncated or corrupt.`, { field });
    }
    throw new CoreError('IMAGE_UNSUPPORTED', `The ${field} image cannot be decoded.`, { field });
  }
}

const SIGNATURES: number[][] = [
  [0xff, 0xd8, 0xff], // JPEG
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0x49, 0x49, 0x2a, 0x00], // TIFF little-endian
  [0x4d, 0x4d, 0x00, 0x2a], // TIFF big-endian
];

function hasImageSignature(bytes: Buffer): boolean {
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return true;
  return SIGNATURES.some((sig) => sig.every((b, i) => bytes[i] === b));
}

function toRgb(data: Buffer, width: number, height: number, channels: number): Buffer {
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    const g = data[j] ?? 0;
    out[i * 3] = g;
    out[i * 3 + 1] = channels >= 3 ? (data[j + 1] ?? 0) : g;
    out[i * 3 + 2] = channels >= 3 ? (data[j + 2] ?? 0) : g;
  }
  return out;
}

/** Luma (ITU-R BT.601) of an RGB buffer, one byte per pixel. */
export function rgbToGray(rgb: Buffer, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += 3) {
    out[i] = ((rgb[j] ?? 0) * 299 + (rgb[j + 1] ?? 0) * 587 + (rgb[j + 2] ?? 0) * 114 + 500) / 1000;
  }
  return out;
}
