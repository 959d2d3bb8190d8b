import { deflateSync } from 'node:zlib';
import type { GrayImage } from '../types.js';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/** Encode a grey image as an 8-bit greyscale PNG, with a pHYs chunk when `dpi` is given. */
export function encodeGrayPng(image: GrayImage, dpi?: number): Buffer {
  const { width, height, data } = image;
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    raw.set(data.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header)];
  if (dpi !== undefined) {
    const phys = Buffer.alloc(9);
    const perMetre = Math.round(dpi / 0.0254);
    phys.writeUInt32BE(perMetre, 0);
    phys.writeUInt32BE(perMetre, 4);
    phys[8] = 1;
    parts.push(chunk('pHYs', phys));
  }
  parts.push(chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}

/** Encode a grey image as an 8-bit palette BMP (what many fingerprint scanners write). */
export function encodeGrayBmp(image: GrayImage, dpi = 500): Buffer {
  const { width, height, data } = image;
  const rowBytes = Math.ceil(width / 4) * 4;
  const offset = 14 + 40 + 256 * 4;
  const out = Buffer.alloc(offset + rowBytes * height);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(offset, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(8, 28);
  out.writeUInt32LE(rowBytes * height, 34);
  const perMetre = Math.round(dpi / 0.0254);
  out.writeInt32LE(perMetre, 38);
  out.writeInt32LE(perMetre, 42);
  out.writeUInt32LE(256, 46);
  for (let i = 0; i < 256; i++) out.set([i, i, i, 0], 54 + i * 4);
  for (let y = 0; y < height; y++) {
    // BMP rows run bottom-up.
    out.set(data.subarray(y * width, (y + 1) * width), offset + (height - 1 - y) * rowBytes);
  }
  return out;
}
