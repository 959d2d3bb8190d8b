import { CoreError } from '../errors.js';
import { uploadName } from './upload-name.js';

/** A decoded raster: interleaved 8-bit channels, rows top to bottom. */
export interface RawRaster {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Buffer;
  /** Horizontal resolution from the header (pixels per metre), in dots per inch, when the file states one. */
  dpi?: number;
}

/** True when the bytes start with a BMP signature. */
export function looksLikeBmp(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

/**
 * Decode an uncompressed BMP (8-bit palette, 24-bit or 32-bit BI_RGB/BI_BITFIELDS with the usual masks)
 * to RGB. libvips as shipped with sharp has no BMP loader, and scanners commonly write BMP.
 */
export function decodeBmp(bytes: Buffer, field: string, maxPixels: number): RawRaster {
  const fail = (why: string): never => {
    throw new CoreError('IMAGE_UNSUPPORTED', `${uploadName(field, 'BMP file')} cannot be decoded: ${why}.`, {
      field,
    });
  };
  const truncated = (): never => {
    throw new CoreError('IMAGE_TRUNCATED', `${uploadName(field, 'image')} is truncated.`, { field });
  };
  // A BMP signature with less than its headers is a cut-off upload.
  if (bytes.length < 54) truncated();
  const dataOffset = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize < 40) fail('OS/2 bitmaps are not supported');
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bitsPerPixel = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) fail('invalid dimensions');
  if (width * height > maxPixels) {
    throw new CoreError(
      'IMAGE_TOO_MANY_PIXELS',
      `${uploadName(field, 'image')} has more than ${maxPixels} pixels.`,
      {
        field,
      },
    );
  }
  if (compression !== 0 && compression !== 3) fail('compressed bitmaps are not supported');
  if (bitsPerPixel !== 8 && bitsPerPixel !== 24 && bitsPerPixel !== 32)
    fail(`${bitsPerPixel}-bit is not supported`);
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  if (dataOffset + rowBytes * height > bytes.length) truncated();
  let palette: Buffer | null = null;
  if (bitsPerPixel === 8) {
    const colours = bytes.readUInt32LE(46) || 256;
    palette = bytes.subarray(14 + headerSize, 14 + headerSize + colours * 4);
  }
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const srcRow = dataOffset + (topDown ? y : height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      if (palette) {
        const p = (bytes[srcRow + x] ?? 0) * 4;
        out[o] = palette[p + 2] ?? 0;
        out[o + 1] = palette[p + 1] ?? 0;
        out[o + 2] = palette[p] ?? 0;
      } else {
        const s = srcRow + x * (bitsPerPixel / 8);
        out[o] = bytes[s + 2] ?? 0;
        out[o + 1] = bytes[s + 1] ?? 0;
        out[o + 2] = bytes[s] ?? 0;
      }
    }
  }
  const pixelsPerMetre = bytes.readInt32LE(38);
  const raster: RawRaster = { width, height, channels: 3, data: out };
  if (pixelsPerMetre > 0) raster.dpi = Math.round(pixelsPerMetre * 0.0254);
  return raster;
}

/** Width and height a BMP header states (height unsigned), or undefined when the header is too short. */
export function bmpSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 26) return undefined;
  const width = bytes.readInt32LE(18);
  const height = Math.abs(bytes.readInt32LE(22));
  return width > 0 && height > 0 ? { width, height } : undefined;
}
