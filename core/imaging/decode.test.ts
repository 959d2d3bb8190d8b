import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';
import { DecodeBudget } from './decode-budget.js';

/** A grey uncompressed TIFF as scanners write it: the directory first, then the pixels in strips of `rowsPerStrip`. */
function greyTiff(width: number, height: number, rowsPerStrip: number): Buffer {
  const strips = Math.ceil(height / rowsPerStrip);
  const entries: [number, number, number, number][] = [
    [256, 3, 1, width],
    [257, 3, 1, height],
    [258, 3, 1, 8],
    [259, 3, 1, 1],
    [262, 3, 1, 1],
    [273, 4, strips, 0],
    [277, 3, 1, 1],
    [278, 3, 1, rowsPerStrip],
    [279, 4, strips, 0],
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const arrays = 8 + ifdSize;
  const pixels = arrays + 8 * strips;
  const buf = Buffer.alloc(pixels + width * height, 0x80);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    buf.writeUInt16LE(tag, at);
    buf.writeUInt16LE(type, at + 2);
    buf.writeUInt32LE(count, at + 4);
    if (tag === 273) buf.writeUInt32LE(strips === 1 ? pixels : arrays, at + 8);
    else if (tag === 279) buf.writeUInt32LE(strips === 1 ? width * height : arrays + 4 * strips, at + 8);
    else if (type === 3) buf.writeUInt16LE(value, at + 8);
    else buf.writeUInt32LE(value, at + 8);
  });
  buf.writeUInt32LE(0, 10 + entries.length * 12);
  for (let s = 0; s < strips; s++) {
    const rows = Math.min(rowsPerStrip, height - s * rowsPerStrip);
    buf.writeUInt32LE(pixels + s * rowsPerStrip * width, arrays + 4 * s);
    buf.writeUInt32LE(rows * width, arrays + 4 * (strips + s));
  }
  return buf;
}

function bmp24(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const buf = Buffer.alloc(54 + row * height);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  // bottom-up rows: make the bottom row red (BGR order on disk)
  for (let x = 0; x < width; x++) buf[54 + x * 3 + 2] = 255;
  return buf;
}

describe('decodeImage', () => {
  it('applies EXIF orientation', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await decodeImage(jpeg, { field: 'selfie' });
    expect([image.width, image.height]).toEqual([20, 40]);
    expect(image.rgb.length).toBe(20 * 40 * 3);
  });

  it('decodes uncompressed BMP (bottom-up) to RGB', async () => {
    const image = await decodeImage(bmp24(5, 3), { field: 'file' });
    expect(image).toMatchObject({ format: 'bmp', width: 5, height: 3 });
    const lastRow = (3 - 1) * 5 * 3;
    expect([...image.rgb.subarray(lastRow, lastRow + 3)]).toEqual([255, 0, 0]);
    expect([...image.rgb.subarray(0, 3)]).toEqual([0, 0, 0]);
  });

  it('decodes greyscale TIFF and PNG to three channels', async () => {
    const grey = Buffer.alloc(30 * 20, 128);
    for (const fmt of ['tiff', 'png'] as const) {
      const bytes = await sharp(grey, { raw: { width: 30, height: 20, channels: 1 } })
        .toFormat(fmt)
        .toBuffer();
      const image = await decodeImage(bytes, { field: 'file' });
      expect(image.rgb.length).toBe(30 * 20 * 3);
      expect(image.rgb[0]).toBe(128);
    }
  });

  it('refuses GIF and SVG as unsupported formats', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    await expect(decodeImage(gif, { field: 'file' })).rejects.toMatchObject({ code: 'IMAGE_UNSUPPORTED' });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    await expect(decodeImage(svg, { field: 'file' })).rejects.toMatchObject({ code: 'IMAGE_UNSUPPORTED' });
  });

  it('refuses a truncated BMP and a truncated PNG', async () => {
    await expect(decodeImage(bmp24(50, 50).subarray(0, 500), { field: 'file' })).rejects.toMatchObject({
      code: 'IMAGE_TRUNCATED',
    });
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#123456' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    await expect(decodeImage(png.subarray(0, png.length / 2), { field: 'file' })).rejects.toMatchObject({
      code: expect.stringMatching(/IMAGE_TRUNCATED|IMAGE_UNSUPPORTED/),
    });
  });

  it('refuses every accepted format cut in half with IMAGE_TRUNCATED', async () => {
    const raw = Buffer.alloc(120 * 90 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) & 255;
    const image = () => sharp(raw, { raw: { width: 120, height: 90, channels: 3 } });
    const files: [string, Buffer][] = [
      ['jpeg', await image().jpeg().toBuffer()],
      ['png', await image().png().toBuffer()],
      ['webp', await image().webp().toBuffer()],
      ['tiff (directory last)', await image().tiff({ compression: 'lzw' }).toBuffer()],
      ['tiff (strips after the directory)', greyTiff(120, 90, 16)],
      ['tiff (one strip)', greyTiff(120, 90, 90)],
      ['bmp', bmp24(120, 90)],
    ];
    for (const [name, bytes] of files) {
      await expect(decodeImage(bytes, { field: 'file' }), name).resolves.toMatchObject({ width: 120 });
      await expect(
        decodeImage(bytes.subarray(0, bytes.length >> 1), { field: 'file' }),
        name,
      ).rejects.toMatchObject({
        code: 'IMAGE_TRUNCATED',
      });
    }
  });

  it('refuses a TIFF missing only its last bytes, and a BMP cut inside its header', async () => {
    const tiff = greyTiff(64, 64, 8);
    await expect(decodeImage(tiff.subarray(0, tiff.length - 1), { field: 'file' })).rejects.toMatchObject({
      code: 'IMAGE_TRUNCATED',
    });
    await expect(decodeImage(bmp24(8, 8).subarray(0, 30), { field: 'file' })).rejects.toMatchObject({
      code: 'IMAGE_TRUNCATED',
    });
  });

  it('reads the resolution a BMP states', async () => {
    const bytes = bmp24(4, 4);
    bytes.writeInt32LE(Math.round(569 / 0.0254), 38);
    await expect(decodeImage(bytes, { field: 'file' })).resolves.toMatchObject({ dpi: 569 });
  });

  it('decodes at the working size of its engines, reserving exactly those bytes, and says how it maps back', async () => {
    const jpeg = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#6688aa' } })
      .jpeg()
      .toBuffer();
    const budget = new DecodeBudget({ bytes: 1 << 30, maxWaitMs: 100 });
    const lease = budget.lease();
    const face = await decodeImage(jpeg, { field: 'selfie', purposes: ['face'], lease });
    expect(face).toMatchObject({ width: 2560, height: 1707, source: { width: 6000, height: 4000 } });
    expect(face.scale).toBeCloseTo(2560 / 6000, 6);
    expect(face.rgb.length).toBe(2560 * 1707 * 3);
    expect(lease.held).toBe(face.rgb.length);
    const full = await decodeImage(jpeg, { field: 'image' });
    expect([full.width, full.scale, full.source]).toEqual([6000, undefined, undefined]);
    lease.release();
    expect(budget.stats().used).toBe(0);
  });

  it('turns first, then sizes: an EXIF quarter turn is sized upright', async () => {
    const jpeg = await sharp({ create: { width: 6000, height: 3000, channels: 3, background: '#808080' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await decodeImage(jpeg, { field: 'selfie', purposes: ['face'] });
    expect([image.width, image.height]).toEqual([1280, 2560]);
    expect(image.source).toEqual({ width: 3000, height: 6000 });
  });

  it('decodes a 1000 dpi print at 500 dpi and cuts an oversized one to its centre', async () => {
    const fine = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#404040' } })
      .png()
      .withMetadata({ density: 1000 })
      .toBuffer();
    const print = await decodeImage(fine, { field: 'file', purposes: ['fingerprint'] });
    expect(print).toMatchObject({ width: 400, height: 500, scale: 0.5 });
    expect(print.dpi).toBeCloseTo(500, 0);
    // Columns numbered in red, rows in green (tens of pixels): the cut must keep the centre's own pixels.
    const raw = Buffer.alloc(5000 * 3000 * 3);
    for (let y = 0; y < 3000; y++)
      for (let x = 0; x < 5000; x++)
        raw.set([Math.floor(x / 20) % 256, Math.floor(y / 20) % 256, 0], (y * 5000 + x) * 3);
    const huge = await sharp(raw, { raw: { width: 5000, height: 3000, channels: 3 } })
      .png()
      .toBuffer();
    const centre = await decodeImage(huge, { field: 'file', purposes: ['fingerprint'] });
    expect(centre).toMatchObject({ width: 2048, height: 2048, offset: { x: 1476, y: 476 } });
    expect(centre.scale).toBeUndefined();
    expect([...centre.rgb.subarray(0, 2)]).toEqual([Math.floor(1476 / 20), Math.floor(476 / 20)]);
  });

  it('brings a BMP to its working size too', async () => {
    const image = await decodeImage(bmp24(400, 40), { field: 'file', purposes: ['fingerprint'] });
    expect([image.width, image.height]).toEqual([400, 40]);
    const budget = new DecodeBudget({ bytes: 1 << 30, maxWaitMs: 100 });
    const lease = budget.lease();
    await decodeImage(bmp24(400, 40), { field: 'file', lease });
    expect(lease.held).toBe(400 * 40 * 3);
  });
});
