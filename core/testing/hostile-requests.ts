import type { HostileImage } from './hostile-images.js';

/** One request of the hostile corpus, as raw HTTP pieces. */
export interface HostileRequest {
  name: string;
  /** Route path (as the OpenAPI document names it). */
  url: string;
  contentType?: string;
  body: Buffer;
  /** True when a 200 is an acceptable answer; false when the request must be refused with a 4xx. */
  mayPass: boolean;
}

/** A public POST route and the fields a valid request carries. */
export interface RouteShape {
  url: string;
  kind: 'multipart' | 'json';
  images: string[];
  text: Record<string, string>;
}

// A valid number nobody is enrolled under.
const MOBILE = '447911123499';

export const MULTIPART_ROUTES: RouteShape[] = [
  {
    url: '/v2/verify',
    kind: 'multipart',
    images: ['fingerprint', 'selfie', 'id_card'],
    text: { mobile_number: MOBILE },
  },
  { url: '/v2/enroll-fp', kind: 'multipart', images: ['file'], text: { mobile_number: MOBILE } },
  { url: '/v2/verify-fp', kind: 'multipart', images: ['fingerprint'], text: { mobile_number: MOBILE } },
  { url: '/v2/match-faces', kind: 'multipart', images: ['selfie', 'id_card'], text: {} },
  { url: '/v1/verify', kind: 'multipart', images: ['id_card'], text: {} },
];

export const JSON_ROUTES: RouteShape[] = [
  { url: '/docs/fingerprint/api/enroll', kind: 'json', images: ['image'], text: { mobile_number: MOBILE } },
  { url: '/docs/fingerprint/api/verify', kind: 'json', images: ['image'], text: { mobile_number: MOBILE } },
  { url: '/docs/fingerprint/api/search', kind: 'json', images: ['image'], text: {} },
  { url: '/docs/face-matching/api/match', kind: 'json', images: ['selfie', 'id_card'], text: {} },
  { url: '/docs/face-matching/api/quality', kind: 'json', images: ['image'], text: {} },
  { url: '/docs/liveness/api/check', kind: 'json', images: ['image'], text: {} },
  { url: '/docs/ocr/api/extract', kind: 'json', images: ['image'], text: {} },
  { url: '/docs/orchestrator/api/verify', kind: 'json', images: ['selfie', 'id_card'], text: {} },
];

/** Raw multipart parts, so the corpus can also write what a well-behaved client never would. */
export type Part = { name: string; value: string | Buffer; filename?: string; headers?: string };

export function multipart(parts: Part[], boundary = 'HostileBoundary', close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const head = part.headers ?? `Content-Disposition: form-data; name="${part.name}"${file}\r\n`;
    chunks.push(
      Buffer.from(`--${boundary}\r\n${head}\r\n`, 'latin1'),
      Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const MULTIPART_TYPE = 'multipart/form-data; boundary=HostileBoundary';

/** The parts of a valid request to `route`, with `overrides` replacing (or, with undefined, removing) fields. */
export function validParts(
  route: RouteShape,
  image: Buffer,
  overrides: Record<string, Part | undefined> = {},
): Part[] {
  const parts: Part[] = [];
  for (const [name, value] of Object.entries(route.text)) parts.push({ name, value });
  for (const name of route.images) parts.push({ name, value: image, filename: `${name}.jpg` });
  const out = parts.filter((p) => !(p.name in overrides)).concat();
  for (const part of Object.values(overrides)) if (part) out.push(part);
  return out;
}

/** A JSON body of a valid request to `route`, with `overrides` merged in. */
export function validJson(
  route: RouteShape,
  image: Buffer,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...route.text };
  for (const name of route.images) body[name] = image.toString('base64');
  return { ...body, ...overrides };
}

/** Each generated image in one image field of a route (the field rotates), as multipart or JSON. */
export function imageRequests(
  images: HostileImage[],
  routes: RouteShape[],
  valid: Buffer,
  offset = 0,
): HostileRequest[] {
  return images.flatMap((image, i) =>
    routes.map((route, r): HostileRequest => {
      const field = route.images[(i + r + offset) % route.images.length]!;
      const name = `${image.name} as ${field}`;
      if (route.kind === 'json') {
        const body = Buffer.from(
          JSON.stringify(validJson(route, valid, { [field]: image.bytes.toString('base64') })),
        );
        return { name, url: route.url, contentType: 'application/json', body, mayPass: image.mayDecode };
      }
      const parts = validParts(route, valid, {
        [field]: { name: field, value: image.bytes, filename: 'upload.jpg' },
      });
      return {
        name,
        url: route.url,
        contentType: MULTIPART_TYPE,
        body: multipart(parts),
        mayPass: image.mayDecode,
      };
    }),
  );
}

/** Mobile numbers no caller should send, each must be refused with 400. */
export const HOSTILE_MOBILES = [
  '0911234567',
  '+999123456789',
  "447911123456' OR '1'='1",
  '٤٤٧٩١١١٢٣٤٥٦',
  '+44 7911 123456 ext 9',
  '𝟒𝟒𝟕𝟗𝟏𝟏𝟏𝟐𝟑𝟒𝟓𝟔',
  '\u202e654321119744',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00447911123456',
  '4'.repeat(300),
  ' ',
  '+',
  '00',
  '+0',
  '447911123456\n447911123457',
];
