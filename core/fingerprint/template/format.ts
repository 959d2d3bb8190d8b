import { CoreError } from '../../errors.js';
import type { FingerprintFeatures, Minutia, MinutiaType } from '../types.js';

/** A decoded template: the features plus the model version that produced them. */
export interface Template {
  modelVersion: string;
  features: FingerprintFeatures;
}

const MAGIC = 0x49445646; // "IDVF"
/** Version of the binary layout below (not of the fingerprint model). */
export const TEMPLATE_FORMAT_VERSION = 1;
const MINUTIA_BYTES = 8;
const TYPE_CODES: readonly MinutiaType[] = ['other', 'ending', 'bifurcation'];
// Coordinates are stored in quarter pixels: sub-pixel precision up to 16383 px.
const COORD_SCALE = 4;
const ANGLE_SCALE = 65536 / (2 * Math.PI);

function invalid(why: string): never {
  throw new CoreError('UNPROCESSABLE', `Fingerprint template is invalid: ${why}.`);
}

function clampInt(value: number, max: number): number {
  return Math.max(0, Math.min(max, Math.round(value)));
}

/**
 * Serialise features to the compact binary template (big-endian): magic "IDVF", format version, flags,
 * model version (length-prefixed UTF-8), dpi, width, height, quality, minutiae (8 bytes each), optional extra.
 */
export function encodeTemplate(template: Template): Buffer {
  const { features } = template;
  const version = Buffer.from(template.modelVersion, 'utf8');
  if (version.length > 255) invalid('model version longer than 255 bytes');
  if (features.minutiae.length > 0xffff) invalid('too many minutiae');
  const extra = features.extra;
  const size =
    4 +
    1 +
    1 +
    1 +
    version.length +
    2 +
    2 +
    2 +
    1 +
    2 +
    features.minutiae.length * MINUTIA_BYTES +
    (extra ? 4 + extra.length : 0);
  const out = Buffer.alloc(size);
  let o = out.writeUInt32BE(MAGIC, 0);
  o = out.writeUInt8(TEMPLATE_FORMAT_VERSION, o);
  o = out.writeUInt8(extra ? 1 : 0, o);
  o = out.writeUInt8(version.length, o);
  o += version.copy(out, o);
  o = out.writeUInt16BE(clampInt(features.dpi, 0xffff), o);
  o = out.writeUInt16BE(clampInt(features.width, 0xffff), o);
  o = out.writeUInt16BE(clampInt(features.height, 0xffff), o);
  o = out.writeUInt8(clampInt(features.quality, 100), o);
  o = out.writeUInt16BE(features.minutiae.length, o);
  for (const m of features.minutiae) {
    o = out.writeUInt16BE(clampInt(m.x * COORD_SCALE, 0xffff), o);
    o = out.writeUInt16BE(clampInt(m.y * COORD_SCALE, 0xffff), o);
    const angle = ((m.angle % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    o = out.writeUInt16BE(Math.round(angle * ANGLE_SCALE) & 0xffff, o);
    o = out.writeUInt8(TYPE_CODES.indexOf(m.type), o);
    o = out.writeUInt8(clampInt(m.quality, 100), o);
  }
  if (extra) {
    o = out.writeUInt32BE(extra.length, o);
    out.set(extra, o);
  }
  return out;
}

/** Parse a binary template; a wrong magic, unknown format version or truncated record is UNPROCESSABLE. */
export function decodeTemplate(bytes: Uint8Array): Template {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (offset: number, length: number): void => {
    if (offset + length > buf.length) invalid('truncated');
  };
  need(0, 7);
  if (buf.readUInt32BE(0) !== MAGIC) invalid('bad magic');
  const format = buf.readUInt8(4);
  if (format !== TEMPLATE_FORMAT_VERSION) invalid(`unknown format version ${format}`);
  const flags = buf.readUInt8(5);
  const versionLength = buf.readUInt8(6);
  need(7, versionLength + 9);
  const modelVersion = buf.toString('utf8', 7, 7 + versionLength);
  let o = 7 + versionLength;
  const dpi = buf.readUInt16BE(o);
  const width = buf.readUInt16BE(o + 2);
  const height = buf.readUInt16BE(o + 4);
  const quality = buf.readUInt8(o + 6);
  const count = buf.readUInt16BE(o + 7);
  o += 9;
  need(o, count * MINUTIA_BYTES);
  const minutiae: Minutia[] = [];
  for (let i = 0; i < count; i++, o += MINUTIA_BYTES) {
    const type = TYPE_CODES[buf.readUInt8(o + 6)];
    if (!type) invalid('unknown minutia type');
    minutiae.push({
      x: buf.readUInt16BE(o) / COORD_SCALE,
      y: buf.readUInt16BE(o + 2) / COORD_SCALE,
      angle: buf.readUInt16BE(o + 4) / ANGLE_SCALE,
      type,
      quality: buf.readUInt8(o + 7),
    });
  }
  const features: FingerprintFeatures = { width, height, dpi, minutiae, quality };
  if (flags & 1) {
    need(o, 4);
    const length = buf.readUInt32BE(o);
    need(o + 4, length);
    features.extra = new Uint8Array(buf.subarray(o + 4, o + 4 + length));
    o += 4 + length;
  }
  if (o !== buf.length) invalid('trailing bytes');
  return { modelVersion, features };
}
