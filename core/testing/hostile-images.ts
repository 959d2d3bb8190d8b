import zlib from 'node:zlib';
import sharp from 'sharp';

/** One generated upload of the hostile corpus. */
export interface HostileImage {
  name: string;
  bytes: Buffer;
  /** True when the bytes may be a usable image (an engine may answer 200); false when they must be refused (4xx). */
  mayDecode: boolean;
}

/** Deterministic bytes from a seed (xorshift32), so every run sends the same corpus. */
export function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

function textured(width: number, height: number): sharp.Sharp {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const x = i % width;
    const y = Math.floor(i / width);
    raw[i * 3] = (x * 9 + y * 3) & 255;
    raw[i * 3 + 1] = (x * y) & 255;
    raw[i * 3 + 2] = ((x ^ y) * 5) & 255;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** An uncompressed 24-bit bottom-up BMP. */
export function encodeBmp(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + row * height);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width * 3; x++) out[54 + y * row + x] = (x * 7 + y * 13) & 255;
  return out;
}

function crc32(bytes: Buffer): number {
  return zlib.crc32(bytes);
}

/** A PNG whose IHDR declares another size, with a valid CRC so only the pixel data betrays it. */
function pngDeclaring(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

/** A JPEG whose SOF segment declares another size. */
function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i + 9 < out.length;) {
    const marker = out[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + out.readUInt16BE(i + 2);
  }
  throw new Error('no SOF segment');
}

/** A lossy WebP whose VP8 frame header declares another size (14 bits each). */
function webpDeclaring(webp: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(webp);
  if (out.toString('latin1', 12, 16) !== 'VP8 ') throw new Error('not a simple lossy WebP');
  out.writeUInt16LE(width & 0x3fff, 26);
  out.writeUInt16LE(height & 0x3fff, 28);
  return out;
}

/** A little-endian TIFF whose first IFD declares another size. */
function tiffDeclaring(tiff: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(tiff);
  const ifd = out.readUInt32LE(4);
  const count = out.readUInt16LE(ifd);
  for (let e = 0; e < count; e++) {
    const entry = ifd + 2 + e * 12;
    const tag = out.readUInt16LE(entry);
    if (tag !== 256 && tag !== 257) continue;
    out.writeUInt16LE(4, entry + 2); // LONG
    out.writeUInt32LE(1, entry + 4);
    out.writeUInt32LE(tag === 256 ? width : height, entry + 8);
  }
  return out;
}

function bmpDeclaring(bmp: Buffer, width: number, height: number, bits = 24, compression = 0): Buffer {
  const out = Buffer.from(bmp);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(bits, 28);
  out.writeUInt32LE(compression, 30);
  return out;
}

/** Damaged copies of one valid file: cuts, flips, noise after the signature, doubled and padded files. */
function damaged(format: string, file: Buffer, seed: number): HostileImage[] {
  const flipped = Buffer.from(file);
  for (let i = 0; i < 8; i++) {
    const at = Math.floor(file.length / 3) + i * 37;
    flipped[at] = flipped[at]! ^ 0x5a;
  }
  const zeroed = Buffer.from(file);
  zeroed.fill(0, Math.floor(file.length / 3), Math.floor((file.length * 2) / 3));
  return [
    { name: `${format} cut to its first 16 bytes`, bytes: file.subarray(0, 16), mayDecode: false },
    { name: `${format} cut at 25%`, bytes: file.subarray(0, Math.floor(file.length / 4)), mayDecode: false },
    { name: `${format} cut at 50%`, bytes: file.subarray(0, Math.floor(file.length / 2)), mayDecode: false },
    {
      name: `${format} cut at 90%`,
      bytes: file.subarray(0, Math.floor(file.length * 0.9)),
      mayDecode: false,
    },
    { name: `${format} missing its last 2 bytes`, bytes: file.subarray(0, file.length - 2), mayDecode: true },
    { name: `${format} with flipped bits`, bytes: flipped, mayDecode: true },
    { name: `${format} with a zeroed middle`, bytes: zeroed, mayDecode: true },
    {
      name: `${format} signature then noise`,
      bytes: Buffer.concat([file.subarray(0, 8), noise(4000, seed)]),
      mayDecode: false,
    },
    { name: `${format} twice in one file`, bytes: Buffer.concat([file, file]), mayDecode: true },
    {
      name: `${format} with 1 MB of trailing noise`,
      bytes: Buffer.concat([file, noise(1 << 20, seed + 1)]),
      mayDecode: true,
    },
  ];
}

/**
 * The image part of the hostile corpus: damaged files in every accepted format, files declaring sizes they do
 * not hold (decompression bombs), degenerate but valid images, other formats and polyglots.
 */
export async function hostileImages(): Promise<HostileImage[]> {
  const base = textured(64, 48);
  const jpeg = await base.clone().jpeg().toBuffer();
  const png = await base.clone().png().toBuffer();
  const webp = await base.clone().webp().toBuffer();
  const tiff = await base.clone().tiff().toBuffer();
  const bmp = encodeBmp(64, 48);
  const valid = (name: string, bytes: Buffer): HostileImage => ({ name, bytes, mayDecode: true });
  const refused = (name: string, bytes: Buffer): HostileImage => ({ name, bytes, mayDecode: false });
  const flat = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#808080' } });
  const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), noise(300, 9)]);
  const svg = Buffer.from(
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg" width="64" height="48">' +
      '<text>&c;</text><image href="file:///etc/passwd"/><script>alert(1)</script></svg>',
  );
  return [
    ...damaged('JPEG', jpeg, 11),
    ...damaged('PNG', png, 12),
    ...damaged('WebP', webp, 13),
    ...damaged('TIFF', tiff, 14),
    ...damaged('BMP', bmp, 15),
    refused('JPEG declaring 65000x65000', jpegDeclaring(jpeg, 65000, 65000)),
    refused('JPEG declaring 1x65000', jpegDeclaring(jpeg, 1, 65000)),
    refused('JPEG declaring 65000x1', jpegDeclaring(jpeg, 65000, 1)),
    refused('JPEG declaring 0x0', jpegDeclaring(jpeg, 0, 0)),
    refused('PNG declaring 65000x65000', pngDeclaring(png, 65000, 65000)),
    refused('PNG declaring 1x65000', pngDeclaring(png, 1, 65000)),
    refused('PNG declaring 2^31-1 squared', pngDeclaring(png, 0x7fffffff, 0x7fffffff)),
    refused('WebP declaring 16383x16383', webpDeclaring(webp, 16383, 16383)),
    refused('TIFF declaring 65000x65000', tiffDeclaring(tiff, 65000, 65000)),
    refused('TIFF declaring 1x65000', tiffDeclaring(tiff, 1, 65000)),
    refused('BMP declaring 65000x65000', bmpDeclaring(bmp, 65000, 65000)),
    refused('BMP declaring 1x65000', bmpDeclaring(bmp, 1, 65000)),
    refused('BMP declaring a negative width', bmpDeclaring(bmp, -64, 48)),
    refused('BMP declaring 1 bit per pixel', bmpDeclaring(bmp, 64, 48, 1)),
    refused('BMP declaring RLE compression', bmpDeclaring(bmp, 64, 48, 8, 1)),
    refused('flat PNG of 64 megapixels', await flat(8000, 8000).png().toBuffer()),
    valid('valid JPEG of 1x65000 pixels', await flat(1, 65000).jpeg().toBuffer()),
    valid('valid PNG of 65000x1 pixels', await flat(65000, 1).png().toBuffer()),
    valid('valid PNG of 1x1 pixel', await flat(1, 1).png().toBuffer()),
    valid('valid WebP of 3x3 pixels', await flat(3, 3).webp().toBuffer()),
    valid('16-bit PNG', await base.clone().png().toColourspace('rgb16').toBuffer()),
    valid('grey PNG with alpha', await base.clone().greyscale().ensureAlpha(0.5).png().toBuffer()),
    valid('palette PNG', await base.clone().png({ palette: true, colours: 4 }).toBuffer()),
    valid('CMYK JPEG', await base.clone().toColourspace('cmyk').jpeg().toBuffer()),
    valid(
      'progressive JPEG with EXIF orientation 8',
      await base.clone().jpeg({ progressive: true }).withMetadata({ orientation: 8 }).toBuffer(),
    ),
    valid('lossless WebP', await base.clone().webp({ lossless: true }).toBuffer()),
    valid(
      'two-page TIFF',
      await sharp([png, png], { join: { animated: true } })
        .tiff()
        .toBuffer(),
    ),
    valid('LZW TIFF', await base.clone().tiff({ compression: 'lzw' }).toBuffer()),
    valid('JPEG with a ZIP appended', Buffer.concat([jpeg, zip])),
    valid(
      'PNG with HTML appended',
      Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]),
    ),
    refused('GIF', await base.clone().gif().toBuffer()),
    refused('AVIF', await base.clone().avif({ effort: 0 }).toBuffer()),
    refused('SVG with entities, a file reference and a script', svg),
    refused(
      'PDF header',
      Buffer.from('%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF'),
    ),
    refused(
      'HTML behind a JPEG signature',
      Buffer.concat([jpeg.subarray(0, 3), Buffer.from('<html>hi</html>')]),
    ),
    refused('GIF header in front of a JPEG', Buffer.concat([Buffer.from('GIF89a', 'latin1'), jpeg])),
    refused('plain text', Buffer.from('this is not a picture at all')),
    refused('one byte', Buffer.from([0xff])),
    refused('empty file', Buffer.alloc(0)),
    refused('noise', noise(5000, 99)),
  ];
}
