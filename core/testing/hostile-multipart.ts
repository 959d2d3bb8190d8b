import { noise } from './hostile-images.js';
import {
  HOSTILE_MOBILES,
  multipart,
  MULTIPART_TYPE,
  validParts,
  type HostileRequest,
  type RouteShape,
} from './hostile-requests.js';

/** Bodies no well-formed multipart client sends, on every multipart route. */
export function multipartAbuse(route: RouteShape, valid: Buffer): HostileRequest[] {
  const first = route.images[0]!;
  const text = Object.keys(route.text)[0];
  const parts = validParts(route, valid);
  const refuse = (name: string, body: Buffer, contentType = MULTIPART_TYPE): HostileRequest => ({
    name,
    url: route.url,
    contentType,
    body,
    mayPass: false,
  });
  const cases: HostileRequest[] = [
    refuse('no boundary in the Content-Type', multipart(parts), 'multipart/form-data'),
    refuse('an empty boundary', multipart(parts), 'multipart/form-data; boundary='),
    refuse('a boundary the body does not use', multipart(parts, 'Other')),
    refuse('no closing boundary, cut inside a file', multipart(parts, undefined, false).subarray(0, -40)),
    refuse('no closing boundary after whole parts', multipart(parts, undefined, false)),
    refuse('an empty body', Buffer.alloc(0)),
    refuse('a preamble and nothing else', Buffer.from('just some text, no parts at all\r\n')),
    refuse('multipart/mixed', multipart(parts), 'multipart/mixed; boundary=HostileBoundary'),
    refuse(
      'a part without Content-Disposition',
      multipart([{ name: first, value: valid, headers: 'Content-Type: image/jpeg\r\n' }]),
    ),
    refuse(
      'a part without a name',
      multipart([
        { name: first, value: valid, headers: 'Content-Disposition: form-data; filename="a.jpg"\r\n' },
      ]),
    ),
    refuse(
      `${first} sent twice`,
      multipart([...parts, { name: first, value: valid, filename: 'again.jpg' }]),
    ),
    refuse(
      `${first} sent as text`,
      multipart(validParts(route, valid, { [first]: { name: first, value: 'not a file' } })),
    ),
    refuse(`${first} missing`, multipart(validParts(route, valid, { [first]: undefined }))),
    refuse(
      `${first} named with 5000 characters`,
      multipart(
        validParts(route, valid, { [first]: { name: 'x'.repeat(5000), value: valid, filename: 'a.jpg' } }),
      ),
    ),
    refuse('a __proto__ field', multipart([{ name: '__proto__', value: 'x' }, ...parts])),
    refuse('a constructor field', multipart([{ name: 'constructor', value: 'x' }, ...parts])),
    refuse(
      '25 extra text fields',
      multipart([...Array.from({ length: 25 }, (_, i) => ({ name: `extra${i}`, value: 'x' })), ...parts]),
    ),
    refuse(
      '8 extra files',
      multipart([
        ...Array.from({ length: 8 }, (_, i) => ({ name: `extra${i}`, value: valid, filename: 'x.jpg' })),
        ...parts,
      ]),
    ),
    refuse(
      'a file over 10 MiB',
      multipart(
        validParts(route, valid, {
          [first]: {
            name: first,
            value: Buffer.concat([valid, noise(10.5 * 1024 * 1024, 7)]),
            filename: 'big.jpg',
          },
        }),
      ),
    ),
    {
      name: 'part headers of 20 KB',
      url: route.url,
      contentType: MULTIPART_TYPE,
      body: multipart([
        {
          name: first,
          value: valid,
          headers: `Content-Disposition: form-data; name="${first}"; filename="a.jpg"\r\nX-Pad: ${'p'.repeat(20_000)}\r\n`,
        },
        ...parts.filter((p) => p.name !== first),
      ]),
      mayPass: true,
    },
    refuse(
      '2000 empty parts',
      multipart(
        Array.from({ length: 2000 }, () => ({
          name: 'p',
          value: '',
          headers: 'Content-Disposition: form-data\r\n',
        })),
      ),
    ),
    {
      name: 'a filename with a path and CRLF',
      url: route.url,
      contentType: MULTIPART_TYPE,
      body: multipart(
        validParts(route, valid, {
          [first]: { name: first, value: valid, filename: '../../etc/passwd%0d%0aX-Injected: 1' },
        }),
      ),
      mayPass: true,
    },
  ];
  if (text) {
    const replaced = (value: string | Buffer, headers?: string): Buffer =>
      multipart(validParts(route, valid, { [text]: { name: text, value, ...(headers ? { headers } : {}) } }));
    cases.push(
      refuse(`${text} sent twice`, multipart([...parts, { name: text, value: '447911123456' }])),
      refuse(
        `${text} sent as a file`,
        replaced('447911123456', `Content-Disposition: form-data; name="${text}"; filename="n.txt"\r\n`),
      ),
      refuse(`${text} of 20,000 characters`, replaced('4'.repeat(20_000))),
      refuse(`${text} in invalid UTF-8`, replaced(Buffer.from([0x34, 0x34, 0xff, 0xfe, 0xc3, 0x28]))),
      refuse(`${text} with a NUL byte`, replaced('447911\u0000123456')),
      refuse(
        `${text} as a JSON part`,
        replaced(
          '{"$gt":""}',
          `Content-Disposition: form-data; name="${text}"\r\nContent-Type: application/json\r\n`,
        ),
      ),
      refuse(
        `${text} as a broken JSON part`,
        replaced(
          '{"a":',
          `Content-Disposition: form-data; name="${text}"\r\nContent-Type: application/json\r\n`,
        ),
      ),
      {
        ...refuse(
          `${text} declared UTF-16`,
          replaced(
            Buffer.from('447911123456', 'utf16le'),
            `Content-Disposition: form-data; name="${text}"\r\nContent-Type: text/plain; charset=utf-16le\r\n`,
          ),
        ),
        mayPass: true,
      },
    );
  }
  return cases;
}

/** Hostile values of the text fields each multipart route reads. */
export function multipartTextAbuse(route: RouteShape, valid: Buffer): HostileRequest[] {
  const refuse = (name: string, field: string, value: string): HostileRequest => ({
    name,
    url: route.url,
    contentType: MULTIPART_TYPE,
    body: multipart(validParts(route, valid, { [field]: { name: field, value } })),
    mayPass: false,
  });
  const cases: HostileRequest[] = [];
  if ('mobile_number' in route.text) {
    for (const mobile of HOSTILE_MOBILES)
      cases.push(refuse(`mobile_number ${JSON.stringify(mobile).slice(0, 40)}`, 'mobile_number', mobile));
  }
  if (route.url === '/v2/match-faces') {
    for (const t of ['NaN', 'Infinity', '-1', '2', '1e309', 'abc', '0x10'])
      cases.push(refuse(`threshold ${t}`, 'threshold', t));
  }
  if (route.url === '/v1/verify') {
    for (const p of ['../../etc', 'x'.repeat(200), '<script>', 'default\u0000'])
      cases.push(refuse(`profile ${p.slice(0, 20)}`, 'profile', p));
  }
  return cases;
}
