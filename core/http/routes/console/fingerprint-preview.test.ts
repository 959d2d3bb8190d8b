import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGrayBmp, encodeGrayPng, syntheticFingerprint } from '../../../fingerprint/synthetic/index.js';
import { buildMultipart } from '../../../testing/multipart.js';
import { attachFingerprintEngine, startTestServer, type TestServer } from '../../../testing/services.js';
import type { FingerprintPreviewResponse } from './api-types.js';

const HOST = '127.0.0.1:8787';

describe('POST /api/console/run/fingerprint-preview', () => {
  let server: TestServer;
  let admin = '';
  const print = syntheticFingerprint(303, 0);

  const preview = async (filename: string, data: Buffer): Promise<FingerprintPreviewResponse> => {
    const { body, contentType } = buildMultipart([{ name: 'file', filename, data }]);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/console/run/fingerprint-preview',
      headers: { host: HOST, cookie: admin, 'content-type': contentType },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    return response.json<FingerprintPreviewResponse>();
  };

  beforeAll(async () => {
    server = await startTestServer();
    attachFingerprintEngine(server);
    const setup = await server.app.inject({
      method: 'POST',
      url: '/api/console/setup',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: 'root', password: 'correct horse battery' },
    });
    admin = String(setup.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => server.close());

  it.each([
    ['TIFF', 'print.tif', () => sharp(encodeGrayPng(print, 500)).tiff().toBuffer()],
    ['BMP', 'print.bmp', () => Promise.resolve(encodeGrayBmp(print, 500))],
  ])('answers a %s print with a PNG a browser can draw under its minutiae', async (_format, name, make) => {
    const result = await preview(name, await make());
    expect(result.minutiae.length).toBeGreaterThan(10);
    expect(result.fingerprint_likeness).toBeGreaterThanOrEqual(50);
    expect(result.not_a_fingerprint).toBeUndefined();
    expect(result.image.url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(result.image.url.slice(result.image.url.indexOf(',') + 1), 'base64');
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height }).toEqual({
      width: result.image.width,
      height: result.image.height,
    });
    // The same shape as the print, so the minutiae land where they were found.
    expect(result.image.width / result.image.height).toBeCloseTo(print.width / print.height, 2);
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const dark = data.filter((v) => v < 128).length / data.length;
    expect(dark).toBeGreaterThan(0.1);
  });
});
