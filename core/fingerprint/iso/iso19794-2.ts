import { CoreError } from '../../errors.js';
import type { FingerprintFeatures, Minutia, MinutiaType } from '../types.js';

/** One finger view of an ISO/IEC 19794-2:2005 record. */
export interface IsoFingerView {
  fingerPosition: number;
  viewNumber: number;
  impressionType: number;
  /** Finger quality 0-100. */
  quality: number;
  minutiae: Minutia[];
}

/** A parsed ISO/IEC 19794-2:2005 finger minutiae record. */
export interface IsoRecord {
  captureEquipmentId: number;
  width: number;
  height: number;
  /** Resolution in pixels per centimetre, as stored. */
  resolutionX: number;
  resolutionY: number;
  views: IsoFingerView[];
}

/** Optional header fields when writing a record. */
export interface IsoEncodeOptions {
  fingerPosition?: number;
  impressionType?: number;
  captureEquipmentId?: number;
}

const HEADER_BYTES = 24;
const VIEW_HEADER_BYTES = 4;
const MINUTIA_BYTES = 6;
/** ISO angles are bytes of 360/256 = 1.40625 degrees. */
const ANGLE_UNIT = (2 * Math.PI) / 256;
const CM_PER_INCH = 2.54;

const TYPE_BITS: Record<MinutiaType, number> = { other: 0, ending: 1, bifurcation: 2 };
const TYPE_OF_BITS: readonly MinutiaType[] = ['other', 'ending', 'bifurcation', 'other'];

function invalid(why: string): never {
  throw new CoreError('UNPROCESSABLE', `ISO/IEC 19794-2 record is invalid: ${why}.`);
}

/**
 * Write features as an ISO/IEC 19794-2:2005 record with one finger view. Coordinates are whole pixels
 * (14 bits), angles are counter-clockwise from the x axis in 1.40625 degree units, as in our own types.
 */
export function encodeIsoRecord(features: FingerprintFeatures, options: IsoEncodeOptions = {}): Buffer {
  // The count field is one byte: keep the best 255 minutiae.
  const minutiae = [...features.minutiae].sort((a, b) => b.quality - a.quality).slice(0, 255);
  const length = HEADER_BYTES + VIEW_HEADER_BYTES + minutiae.length * MINUTIA_BYTES + 2;
  const out = Buffer.alloc(length);
  out.write('FMR\0 20\0', 0, 'latin1');
  out.writeUInt32BE(length, 8);
  out.writeUInt16BE((options.captureEquipmentId ?? 0) & 0x0fff, 12);
  out.writeUInt16BE(Math.min(0xffff, features.width), 14);
  out.writeUInt16BE(Math.min(0xffff, features.height), 16);
  const ppcm = Math.round(features.dpi / CM_PER_INCH);
  out.writeUInt16BE(ppcm, 18);
  out.writeUInt16BE(ppcm, 20);
  out.writeUInt8(1, 22);
  out.writeUInt8(0, 23);
  out.writeUInt8(options.fingerPosition ?? 0, 24);
  out.writeUInt8(options.impressionType ?? 0, 25);
  out.writeUInt8(Math.max(0, Math.min(100, Math.round(features.quality))), 26);
  out.writeUInt8(minutiae.length, 27);
  let o = HEADER_BYTES + VIEW_HEADER_BYTES;
  for (const m of minutiae) {
    const x = Math.max(0, Math.min(0x3fff, Math.round(m.x)));
    const y = Math.max(0, Math.min(0x3fff, Math.round(m.y)));
    out.writeUInt16BE((TYPE_BITS[m.type] << 14) | x, o);
    out.writeUInt16BE(y, o + 2);
    const turn = ((m.angle % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    out.writeUInt8(Math.round(turn / ANGLE_UNIT) & 0xff, o + 4);
    out.writeUInt8(Math.max(0, Math.min(100, Math.round(m.quality))), o + 5);
    o += MINUTIA_BYTES;
  }
  out.writeUInt16BE(0, o);
  return out;
}

/** Parse an ISO/IEC 19794-2:2005 record (all views; extended data is skipped). Bad input is UNPROCESSABLE. */
export function decodeIsoRecord(bytes: Uint8Array): IsoRecord {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER_BYTES) invalid('shorter than its header');
  if (buf.toString('latin1', 0, 4) !== 'FMR\0') invalid('missing "FMR" identifier');
  if (buf.toString('latin1', 4, 8) !== ' 20\0')
    invalid(`unsupported version "${buf.toString('latin1', 4, 7)}"`);
  const recordLength = buf.readUInt32BE(8);
  if (recordLength > buf.length) invalid('record length exceeds the data');
  const record: IsoRecord = {
    captureEquipmentId: buf.readUInt16BE(12) & 0x0fff,
    width: buf.readUInt16BE(14),
    height: buf.readUInt16BE(16),
    resolutionX: buf.readUInt16BE(18),
    resolutionY: buf.readUInt16BE(20),
    views: [],
  };
  const viewCount = buf.readUInt8(22);
  let o = HEADER_BYTES;
  for (let v = 0; v < viewCount; v++) {
    if (o + VIEW_HEADER_BYTES > recordLength) invalid('truncated finger view');
    const count = buf.readUInt8(o + 3);
    const view: IsoFingerView = {
      fingerPosition: buf.readUInt8(o),
      viewNumber: buf.readUInt8(o + 1) >> 4,
      impressionType: buf.readUInt8(o + 1) & 0x0f,
      quality: buf.readUInt8(o + 2),
      minutiae: [],
    };
    o += VIEW_HEADER_BYTES;
    if (o + count * MINUTIA_BYTES + 2 > recordLength) invalid('truncated minutiae');
    for (let i = 0; i < count; i++, o += MINUTIA_BYTES) {
      const xWord = buf.readUInt16BE(o);
      view.minutiae.push({
        type: TYPE_OF_BITS[xWord >> 14] ?? 'other',
        x: xWord & 0x3fff,
        y: buf.readUInt16BE(o + 2) & 0x3fff,
        angle: buf.readUInt8(o + 4) * ANGLE_UNIT,
        quality: buf.readUInt8(o + 5),
      });
    }
    const extended = buf.readUInt16BE(o);
    o += 2 + extended;
    if (o > recordLength) invalid('truncated extended data');
    record.views.push(view);
  }
  return record;
}

/** How to read a producer's records into our convention. */
export interface IsoImportOptions {
  /**
   * Radians added to every angle, for producers that point minutiae the other way along the ridge. SecuGen's
   * records and ours agree (measured on the FVC sets with `npm run eval:fingerprint-iso`): none needed.
   */
  angleOffset?: number;
}

/** Features of the first finger view of a record, with the resolution converted to dots per inch. */
export function isoRecordToFeatures(record: IsoRecord, options: IsoImportOptions = {}): FingerprintFeatures {
  const view = record.views[0];
  if (!view) invalid('no finger view');
  const offset = options.angleOffset ?? 0;
  return {
    width: record.width,
    height: record.height,
    dpi: Math.round(record.resolutionX * CM_PER_INCH),
    minutiae: view.minutiae.map((m) => ({
      ...m,
      angle: (((m.angle + offset) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI),
    })),
    quality: view.quality,
  };
}
