import sharp from 'sharp';
import { idCardOf, PEOPLE, selfieOf } from '../../core/face/testing/fixtures.js';
import { encodeGrayPng, syntheticFingerprint } from '../../core/fingerprint/synthetic/index.js';
import { buildMultipart } from '../../core/testing/multipart.js';

/** One request the load sends over and over. */
export interface LoadRequest {
  path: string;
  body: Buffer;
  contentType: string;
}

/** The enrolled number the fingerprint requests are about. */
export const MOBILE = '447911123456';

/** Uploads of ordinary size: a 500 dpi print, a 600 px selfie, a 1012 px card (real faces). */
export async function ordinaryImages(): Promise<{
  enrolled: Buffer;
  probe: Buffer;
  selfie: Buffer;
  card: Buffer;
}> {
  return {
    enrolled: encodeGrayPng(syntheticFingerprint(4242, 0), 500),
    probe: encodeGrayPng(syntheticFingerprint(4242, 1), 500),
    selfie: await selfieOf(PEOPLE.a),
    card: await idCardOf(PEOPLE.a),
  };
}

/** Just under the 40-megapixel limit (7296 x 5472 = 39.9 MP). */
const NEAR_LIMIT = { width: 7296, height: 5472 };

/**
 * Three uploads just under the pixel limit, as PNG (few bytes, about 120 MB each once decoded at full size): the
 * print, the selfie and the card enlarged, so the engines still find a finger and faces in them.
 */
export async function nearLimitImages(small: { probe: Buffer; selfie: Buffer; card: Buffer }): Promise<{
  probe: Buffer;
  selfie: Buffer;
  card: Buffer;
}> {
  const enlarge = (bytes: Buffer, grey: boolean): Promise<Buffer> => {
    let image = sharp(bytes).resize(NEAR_LIMIT.width, NEAR_LIMIT.height, { fit: 'fill', kernel: 'nearest' });
    if (grey) image = image.greyscale();
    return image.png({ compressionLevel: 9, palette: !grey, colours: 64 }).toBuffer();
  };
  return {
    probe: await enlarge(small.probe, true),
    selfie: await enlarge(small.selfie, false),
    card: await enlarge(small.card, false),
  };
}

/** The benchmarked requests over a set of images. */
export function requests(images: {
  probe: Buffer;
  selfie: Buffer;
  card: Buffer;
}): Record<string, LoadRequest> {
  const form = (path: string, parts: Parameters<typeof buildMultipart>[0]): LoadRequest => {
    const { body, contentType } = buildMultipart(parts);
    return { path, body, contentType };
  };
  const file = (name: string, data: Buffer) => ({
    name,
    filename: `${name}.png`,
    contentType: 'image/png',
    data,
  });
  return {
    'verify-fp': form('/v2/verify-fp', [
      { name: 'mobile_number', value: MOBILE },
      file('fingerprint', images.probe),
    ]),
    'match-faces': form('/v2/match-faces', [file('selfie', images.selfie), file('id_card', images.card)]),
    'v1-verify': form('/v1/verify', [file('id_card', images.card)]),
    'v2-verify': form('/v2/verify', [
      { name: 'mobile_number', value: MOBILE },
      file('fingerprint', images.probe),
      file('selfie', images.selfie),
      file('id_card', images.card),
    ]),
  };
}

/** The enrollment the fingerprint requests verify against. */
export function enrollment(print: Buffer): LoadRequest {
  const { body, contentType } = buildMultipart([
    { name: 'mobile_number', value: MOBILE },
    { name: 'file', filename: 'print.png', contentType: 'image/png', data: print },
  ]);
  return { path: '/v2/enroll-fp', body, contentType };
}
