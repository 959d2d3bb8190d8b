import { noise } from './hostile-images.js';
import { HOSTILE_MOBILES, validJson, type HostileRequest, type RouteShape } from './hostile-requests.js';

/** JSON bodies no well-formed client sends, on every JSON route. */
export function jsonAbuse(route: RouteShape, valid: Buffer): HostileRequest[] {
  const image = route.images[0]!;
  const refuse = (name: string, body: string | Buffer, contentType = 'application/json'): HostileRequest => ({
    name,
    url: route.url,
    contentType,
    body: Buffer.from(body),
    mayPass: false,
  });
  const withField = (value: unknown): string => JSON.stringify(validJson(route, valid, { [image]: value }));
  const whole = JSON.stringify(validJson(route, valid));
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const asBase64 = (bytes: Buffer) => bytes.toString('base64');
  return [
    refuse('broken JSON', '{"image":'),
    refuse('a valid body cut short', whole.slice(0, Math.floor(whole.length / 2))),
    refuse('an empty body', ''),
    refuse('null', 'null'),
    refuse('an array', `[${whole}]`),
    refuse('a string', '"image"'),
    refuse('a number', '42'),
    refuse('true', 'true'),
    refuse(`${image} as a number`, withField(12345)),
    refuse(`${image} as an object`, withField({ data: asBase64(valid) })),
    refuse(`${image} as an array`, withField([asBase64(valid)])),
    refuse(`${image} as true`, withField(true)),
    refuse(`${image} as null`, withField(null)),
    refuse(`${image} not base64`, withField('!!!not*base64!!!')),
    refuse(`${image} base64 of text`, withField(Buffer.from('just text, no image').toString('base64'))),
    refuse(
      `${image} as a data URL of HTML`,
      withField(`data:text/html;base64,${Buffer.from('<b>x</b>').toString('base64')}`),
    ),
    refuse(`${image} of 15 MB`, withField(asBase64(noise(15 * 1024 * 1024, 3)))),
    refuse(
      'nested 40 levels deep',
      JSON.stringify({ ...validJson(route, valid), extra: JSON.parse(nested(40)) as unknown }),
    ),
    refuse('nested 100,000 levels deep', nested(100_000)),
    refuse(`${image} twice`, `{"${image}":"${asBase64(valid)}",${whole.slice(1)}`),
    refuse(
      `${image} twice, once escaped`,
      `{"\\u00${image.charCodeAt(0).toString(16)}${image.slice(1)}":"x",${whole.slice(1)}`,
    ),
    refuse('a __proto__ key', `{"__proto__":{"polluted":true},${whole.slice(1)}`),
    refuse('a constructor.prototype key', `{"constructor":{"prototype":{"polluted":true}},${whole.slice(1)}`),
    refuse(
      'invalid UTF-8 in a string',
      Buffer.concat([Buffer.from(`{"${image}":"`), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]),
    ),
    refuse(
      'a UTF-16 body with a BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(whole, 'utf16le')]),
    ),
    refuse('a lone surrogate', withField('\ud800')),
    refuse('text/plain', whole, 'text/plain'),
    refuse('application/xml', `<image>${asBase64(valid)}</image>`, 'application/xml'),
    refuse(
      'form-urlencoded',
      `${image}=${encodeURIComponent(asBase64(valid))}`,
      'application/x-www-form-urlencoded',
    ),
    {
      name: 'no Content-Type',
      url: route.url,
      body: Buffer.from(whole),
      mayPass: false,
    },
    refuse(
      '10,000 unknown keys and no image',
      JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
    ),
  ];
}

/** Hostile values of the text fields each JSON route reads. */
export function jsonTextAbuse(route: RouteShape, valid: Buffer): HostileRequest[] {
  const body = (overrides: Record<string, unknown>) =>
    Buffer.from(JSON.stringify(validJson(route, valid, overrides)));
  const refuse = (name: string, overrides: Record<string, unknown>): HostileRequest => ({
    name,
    url: route.url,
    contentType: 'application/json',
    body: body(overrides),
    mayPass: false,
  });
  const cases: HostileRequest[] = [];
  if ('mobile_number' in route.text) {
    for (const mobile of HOSTILE_MOBILES)
      cases.push(refuse(`mobile_number ${JSON.stringify(mobile).slice(0, 40)}`, { mobile_number: mobile }));
    cases.push(refuse('mobile_number as a number', { mobile_number: 447911123456 }));
    cases.push(refuse('mobile_number as an array', { mobile_number: ['447911123456'] }));
  }
  if (route.url.endsWith('/search')) {
    for (const k of [-1, 0, 51, 5.5, '5', true, 1e300]) cases.push(refuse(`k ${JSON.stringify(k)}`, { k }));
  }
  if (route.url.endsWith('/face-matching/api/match')) {
    for (const threshold of [-5, 7, 'abc', '0x10', [0.5], { $gt: 0 }])
      cases.push(refuse(`threshold ${JSON.stringify(threshold)}`, { threshold }));
  }
  if (route.url.endsWith('/ocr/api/extract')) {
    for (const type of ['passport\u0000', 'x'.repeat(100), 42, ['passport'], 'PASSPORT; DROP TABLE'])
      cases.push(refuse(`document_type ${JSON.stringify(type).slice(0, 30)}`, { document_type: type }));
  }
  if (route.url.endsWith('/orchestrator/api/verify')) {
    for (const reference of ['x'.repeat(10_000), { nested: { deeper: 1 } }, ['a'], 'tab\there', 'ünïcode'])
      cases.push(refuse(`reference ${JSON.stringify(reference).slice(0, 30)}`, { reference }));
  }
  return cases;
}
