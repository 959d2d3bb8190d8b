import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentEngine } from '../contracts/document-engine.js';
import type { FaceEngine } from '../contracts/face-engine.js';
import { createDocumentEngine, DocumentWorkers, type MrzReader } from '../document/index.js';
import { renderIdCard } from '../document/render/render-card.js';
import { createFaceEngine } from '../face/index.js';
import { encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { samplePhoto } from '../testing/images.js';
import { buildMultipart } from '../testing/multipart.js';
import { attachFingerprintEngine, startTestServer, type TestServer } from '../testing/services.js';

/** Every call made through an engine's contract: method name and arguments. */
type Calls = { method: string; args: unknown[] }[];

/** The real engine, with every contract call recorded on its way in. */
function recorded<T extends object>(engine: T, calls: Calls): T {
  return new Proxy(engine, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ method: String(property), args });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * /v2/verify decodes each upload once and finds the card's faces once: the id_card step works on the face_match
 * step's analysis of the very image the route decoded. Real engines, their calls recorded through the contracts.
 */
describe('/v2/verify reuses the card analysis (real engines)', () => {
  let server: TestServer;
  let selfie: Buffer;
  const face: Calls = [];
  const document: Calls = [];
  const mrz: Calls = [];
  const print = (impression: number): Buffer => encodeGrayPng(syntheticFingerprint(101, impression), 500);

  beforeAll(async () => {
    server = await startTestServer();
    attachFingerprintEngine(server);
    const faceEngine = await createFaceEngine({ settings: server.services.settings });
    server.services.disposers.push(() => faceEngine.dispose());
    const countedFace = recorded<FaceEngine>(faceEngine, face);
    const workers = new DocumentWorkers({ size: 1 });
    server.services.disposers.push(() => workers.close());
    const readMrz: MrzReader = (image, options) => {
      mrz.push({ method: 'readMrz', args: [image] });
      return workers.readMrz(image, options);
    };
    const engine = await createDocumentEngine({
      profiles: server.services.store.documentProfiles,
      marks: server.services.store.referenceMarks,
      face: countedFace,
      readMrz,
      workers,
      // The whole card is searched: the production time bound depends on the machine's load.
      ghostLimits: { maxWindows: 1000, budgetMs: 600_000, concurrency: 2 },
    });
    server.services.face = countedFace;
    server.services.document = recorded<DocumentEngine>(engine, document);
    selfie = await sharp(samplePhoto(1))
      .extract({ left: 1290, top: 0, width: 520, height: 620 })
      .resize(480)
      .jpeg()
      .toBuffer();
    const { body, contentType } = buildMultipart([
      { name: 'mobile_number', value: '+44 7911 123456' },
      { name: 'file', filename: 'print.png', data: print(0) },
    ]);
    const enrolled = await server.app.inject({
      method: 'POST',
      url: '/v2/enroll-fp',
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(enrolled.json()).toMatchObject({ status: 'SUCCESS' });
  }, 240_000);
  afterAll(async () => server.close());

  async function verify(card: Buffer, fingerprint = print(1)): Promise<Record<string, unknown>> {
    face.length = 0;
    document.length = 0;
    mrz.length = 0;
    const { body, contentType } = buildMultipart([
      { name: 'mobile_number', value: '447911123456' },
      { name: 'fingerprint', filename: 'fp.png', data: fingerprint },
      { name: 'selfie', filename: 'selfie.jpg', data: selfie },
      { name: 'id_card', filename: 'card.jpg', data: card },
    ]);
    const res = await server.app.inject({
      method: 'POST',
      url: '/v2/verify',
      payload: body,
      headers: { 'content-type': contentType },
    });
    const answered = res.json<Record<string, unknown>>();
    // Only the answered steps are timed, in order.
    expect(res.headers['server-timing']).toMatch(
      answered.step === 'fingerprint'
        ? /^fingerprint;dur=\d+$/
        : /^fingerprint;dur=\d+, face_match;dur=\d+, id_card_check;dur=\d+$/,
    );
    return answered;
  }

  it('searches the ghost portrait with the face step’s faces: no second decode, no second card detection', async () => {
    const body = await verify(await renderIdCard({ person: 0, mrz: false }));
    expect(body).toMatchObject({
      status: 'SUCCESS',
      details: { id_card: { feature_detected: 'ghost_portrait' } },
    });
    const [match, ...later] = face;
    expect(match?.method).toBe('matchCard');
    const card = match!.args[1];
    const [check] = document;
    expect(document.map((c) => c.method)).toEqual(['checkIdCard']);
    // The decoded upload itself, and the face step's analysis of it (its faces found once), which the id_card
    // step is given while the face step still runs.
    expect(check!.args[0]).toBe(card);
    const given = await (check!.args[1] as { card: PromiseLike<{ image: unknown }> }).card;
    expect(given.image).toBe(card);
    expect(later.map((c) => c.method)).not.toContain('analyseCard');
    expect(later.map((c) => c.method)).not.toContain('matchCard');
    // Later detections look at windows of the card, never at the card again.
    expect(later.filter((c) => c.method === 'detect' && c.args[0] === card)).toEqual([]);
    expect(later.filter((c) => c.method === 'detect').length).toBeGreaterThan(0);
    expect(mrz).toHaveLength(1);
  });

  it('stops at a valid MRZ: the ghost portrait is not searched', async () => {
    const body = await verify(await renderIdCard({ person: 0 }));
    expect(body).toMatchObject({
      status: 'SUCCESS',
      details: { id_card: { feature_detected: 'mrz', not_evaluated: ['ghost_portrait'] } },
    });
    expect(face.map((c) => c.method)).toEqual(['matchCard']);
    expect(mrz).toHaveLength(1);
  });

  it('answers a fingerprint rejection as before, and stops the ID-card work begun beside it', async () => {
    const other = encodeGrayPng(syntheticFingerprint(202, 1), 500);
    const body = await verify(await renderIdCard({ person: 0 }), other);
    expect(body).toMatchObject({ step: 'fingerprint', status: 'REJECTED', reason: 'no_match' });
    expect(body).not.toHaveProperty('details.id_card');
    // The card was being checked at once; by the answer, that check was told to stop.
    const [check] = document;
    expect(check?.method).toBe('checkIdCard');
    expect((check!.args[1] as { signal: AbortSignal }).signal.aborted).toBe(true);
  });
});
