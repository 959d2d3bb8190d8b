import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeMrzReader, readMrz } from '../../document/mrz/index.js';
import { renderMrzCard, TD3_SPECIMEN } from '../../document/mrz/test-fixtures.js';
import { OcrService, TesseractPool } from '../../document/ocr/index.js';
import { startTestServer, type TestServer } from '../../testing/services.js';

describe('POST /docs/ocr/api/extract (real MRZ model and tesseract.js)', () => {
  let server: TestServer;
  let card: string;
  beforeAll(async () => {
    server = await startTestServer();
    const printed = new TesseractPool(1);
    server.services.ocr = new OcrService({ readMrz, printed });
    server.services.disposers.push(
      () => printed.dispose(),
      () => disposeMrzReader(),
    );
    card = (await renderMrzCard(TD3_SPECIMEN)).toString('base64');
  });
  afterAll(async () => server.close());

  const extract = (payload: Record<string, unknown>) =>
    server.app.inject({ method: 'POST', url: '/docs/ocr/api/extract', payload });

  it('extracts a passport: fields from the MRZ, every check digit, and the printed cross-check', async () => {
    const res = await extract({ image: card });
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      document_type: 'passport',
      fields: {
        surname: { value: 'ERIKSSON', source: 'mrz' },
        document_number: { value: 'L898902C3', source: 'mrz' },
        date_of_birth: { value: '1974-08-12' },
        expiry_date: { value: '2012-04-15' },
        nationality: { value: 'UTO' },
        sex: { value: 'F' },
      },
      mrz: { format: 'TD3', valid: true, lines: TD3_SPECIMEN },
    });
    const checks = (body.mrz as { checks: { name: string; valid: boolean }[] }).checks;
    expect(checks.map((c) => c.name)).toContain('compositeCheckDigit');
    const cross = body.cross_check as { field: string; status: string }[];
    expect(cross.find((c) => c.field === 'surname')?.status).toBe('match');
    expect(cross.find((c) => c.field === 'date_of_birth')?.status).toBe('match');
    // Privacy: neither the image nor its base64 reaches the logs.
    expect(server.logs.join('').includes(card.slice(0, 64))).toBe(false);
  });

  it('answers 200 with empty fields and a clear message for an image without any text', async () => {
    const blank = await sharp({ create: { width: 500, height: 320, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const res = await extract({ image: blank.toString('base64'), document_type: 'id_card' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      fields: {},
      mrz: null,
      cross_check: [],
      message: 'No MRZ, barcode or readable text was found on the image.',
    });
  });

  it('rejects bad input with 4xx errors, never a 500', async () => {
    expect((await extract({})).json()).toMatchObject({
      status: 'ERROR',
      code: 'FIELD_MISSING',
      field: 'image',
    });
    const notImage = await extract({ image: Buffer.from('plain text, not an image').toString('base64') });
    expect(notImage.statusCode).toBe(415);
    const badType = await extract({ image: card, document_type: 'library_card' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toMatchObject({ code: 'FIELD_INVALID', field: 'document_type' });
  });

  it('is documented in /openapi.json', async () => {
    const doc = (await server.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(doc.paths['/docs/ocr/api/extract']).toBeDefined();
  });
});

describe('POST /docs/ocr/api/extract without the engine', () => {
  it('answers 501 NOT_IMPLEMENTED', async () => {
    const server = await startTestServer();
    try {
      const res = await server.app.inject({
        method: 'POST',
        url: '/docs/ocr/api/extract',
        payload: { image: 'AAAA' },
      });
      expect(res.statusCode).toBe(501);
      expect(res.json()).toMatchObject({ code: 'NOT_IMPLEMENTED' });
    } finally {
      await server.close();
    }
  });
});
