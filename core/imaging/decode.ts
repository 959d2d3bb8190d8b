import sharp from 'sharp';
import { CoreError } from '../errors.js';
import { ACCEPTED_FORMATS, DEFAULT_IMAGE_LIMITS, type AcceptedFormat, type ImageLimits } from './limits.js';
import { bmpSize, decodeBmp, looksLikeBmp } from './bmp.js';
import type { DecodeLease } from './decode-budget.js';
import { tiffIsComplete } from './tiff.js';
import { workingSize, type ImagePurpose, type WorkingSize } from './working-size.js';
import { uploadName } from './upload-name.js';

/** An upload that decoded fully: RGB pixels after EXIF orientation, never stored or logged. */
export interface DecodedImage {
  format: AcceptedFormat;
  width: number;
  height: number;
  /** Interleaved RGB, 8 bits per channel, `width * height * 3` bytes. */
  rgb: Buffer;
  /** Resolution of the decoded pixels in dots per inch, when the file header states one. */
  dpi?: number;
  /**
   * Decoded pixels per pixel of the upload: below 1 when it was decoded at an engine's working size (absent = 1).
   * Positions in the upload are `decoded / scale + offset`.
   */
  scale?: number;
  /** Where the decoded pixels start in the upload, when only its centre was decoded (an oversized print). */
  offset?: { x: number; y: number };
  /** Size of the upload itself (after EXIF orientation), when it differs from the decoded size. */
  source?: { width: number; height: number };
}

/** What `decodeImage` needs to know about the upload. */
export interface DecodeOptions {
  /** Request field name, echoed in errors. */
  field: string;
  limits?: ImageLimits;
  /** Engines the image is for: it is decoded no larger than they work at (none: full resolution). */
  purposes?: readonly ImagePurpose[];
  /** The request's share of the decode budget: the decoded bytes are reserved from it before decoding. */
  lease?: DecodeLease;
  /** Stops waiting for room in the budget (the client left). */
  signal?: AbortSignal;
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
  if (bytes.length === 0)
    throw new CoreError('FIELD_MISSING', `${uploadName(field, 'file')} is empty.`, { field });
  if (bytes.length > limits.maxFileBytes) {
    throw new CoreError(
      'FILE_TOO_LARGE',
      `${uploadName(field, 'file')} exceeds ${limits.maxFileBytes} bytes.`,
      {
        field,
      },
    );
  }
  if (looksLikeBmp(bytes)) return decodeBmpUpload(bytes, options, limits);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    // A known signature whose header cannot be read is a cut-off upload, not a foreign format.
    if (hasImageSignature(bytes)) {
      throw new CoreError('IMAGE_TRUNCATED', `${uploadName(field, 'image')} is truncated or corrupt.`, {
        field,
      });
    }
    throw new CoreError(
      'IMAGE_UNSUPPORTED',
      `${uploadName(field, 'file')} is not a supported image (JPEG, PNG, WebP, TIFF, BMP).`,
      {
        field,
      },
    );
  }
  const format = meta.format as string | undefined;
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    throw new CoreError(
      'IMAGE_UNSUPPORTED',
      `${uploadName(field, 'image')} format ${format ?? 'unknown'} is not accepted.`,
      {
        field,
      },
    );
  }
  // libtiff reads strips past the end of the file as zeros without a word: a TIFF cut short must be caught here.
  if (format === 'tiff' && !tiffIsComplete(bytes)) {
    throw new CoreError('IMAGE_TRUNCATED', `${uploadName(field, 'image')} is truncated or corrupt.`, {
      field,
    });
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) {
    throw new CoreError('IMAGE_UNSUPPORTED', `${uploadName(field, 'image')} has no dimensions.`, { field });
  }
  if (width * height > limits.maxPixels) {
    throw new CoreError(
      'IMAGE_TOO_MANY_PIXELS',
      `${uploadName(field, 'image')} has more than ${limits.maxPixels} pixels.`,
      {
        field,
      },
    );
  }
  // EXIF orientations 5-8 turn the image a quarter: the working size is of the upright image.
  const turned = (meta.orientation ?? 1) >= 5;
  const source = { width: turned ? height : width, height: turned ? width : height };
  const work = workingSize(
    { ...source, ...(meta.density ? { dpi: meta.density } : {}) },
    options.purposes ?? [],
    limits.minSide,
  );
  await options.lease?.reserve(work.width * work.height * 3, options.signal);
  try {
    const pipeline = fitted(
      sharp(bytes, { failOn: 'truncated', limitInputPixels: limits.maxPixels, pages: 1 }).rotate(),
      work,
      source,
    );
    const { data, info } = await pipeline
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgb = info.channels === 3 ? data : toRgb(data, info.width, info.height, info.channels);
    return withWorkingSize(
      { format: format as AcceptedFormat, width: info.width, height: info.height, rgb },
      work,
      source,
      meta.density,
    );
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    if (/truncat|premature|end of|corrupt|unexpected end|short read|read error/i.test(text)) {
      throw new CoreError('IMAGE_TRUNCATED', `${uploadName(field, 'image')} is truncated or corrupt.`, {
        field,
      });
    }
    throw new CoreError('IMAGE_UNSUPPORTED', `${uploadName(field, 'image')} cannot be decoded.`, { field });
  }
}

/** The decoded image with where it sits in the upload and the density of its own pixels. */
function withWorkingSize(
  decoded: DecodedImage,
  work: WorkingSize,
  source: { width: number; height: number },
  density: number | undefined,
): DecodedImage {
  if (density && density > 0) decoded.dpi = density * work.scale;
  if (work.scale !== 1) decoded.scale = work.scale;
  if (work.region.left !== 0 || work.region.top !== 0)
    decoded.offset = { x: work.region.left, y: work.region.top };
  if (decoded.width !== source.width || decoded.height !== source.height) decoded.source = source;
  return decoded;
}

/** Cut and scale a pipeline to its working size (nothing when that is the whole upload at full size). */
function fitted(
  pipeline: sharp.Sharp,
  work: WorkingSize,
  source: { width: number; height: number },
): sharp.Sharp {
  const { region } = work;
  if (region.width !== source.width || region.height !== source.height) pipeline = pipeline.extract(region);
  if (work.width === region.width && work.height === region.height) return pipeline;
  // An exact size: JPEG and WebP shrink while they decode, and the budget reserved exactly these bytes.
  return pipeline.resize(work.width, work.height, { fit: 'fill' });
}

/** A BMP (decoded by the project: libvips has no BMP loader), then brought to its working size. */
async function decodeBmpUpload(
  bytes: Buffer,
  options: DecodeOptions,
  limits: ImageLimits,
): Promise<DecodedImage> {
  const { field } = options;
  const size = bmpSize(bytes);
  const source = size ?? { width: 0, height: 0 };
  const work = workingSize(source, options.purposes ?? [], limits.minSide);
  // The whole raster exists before it is brought down: that is what is held meanwhile.
  if (size && size.width * size.height <= limits.maxPixels)
    await options.lease?.reserve(
      Math.max(size.width * size.height, work.width * work.height) * 3,
      options.signal,
    );
  const raster = decodeBmp(bytes, field, limits.maxPixels);
  const decoded: DecodedImage = {
    format: 'bmp',
    width: raster.width,
    height: raster.height,
    rgb: raster.data,
  };
  if (raster.dpi) decoded.dpi = raster.dpi;
  if (work.width === raster.width && work.height === raster.height) return decoded;
  const input = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 3 } });
  const { data, info } = await fitted(input, work, source).raw().toBuffer({ resolveWithObject: true });
  return withWorkingSize(
    { format: 'bmp', width: info.width, height: info.height, rgb: data },
    work,
    source,
    raster.dpi,
  );
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
export function rgbToGray(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += 3) {
    out[i] = ((rgb[j] ?? 0) * 299 + (rgb[j + 1] ?? 0) * 587 + (rgb[j + 2] ?? 0) * 114 + 500) / 1000;
  }
  return out;
}
