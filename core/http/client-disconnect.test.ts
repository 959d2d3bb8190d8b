import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texturedJpeg } from '../testing/images.js';
import { startTestServer, type TestServer } from '../testing/services.js';

/** Send a request head and part of its body, then drop the connection. */
function abandonUpload(port: number, head: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      socket.write(body, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

describe('a client that disconnects mid-upload', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer();
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => server.close());

  it('is audited as a closed request (499), not as a server error, and logged without an error', async () => {
    const jpeg = await texturedJpeg(200, 200);
    const head = (length: number) =>
      `POST /v2/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${length}\r\n\r\n`;
    const start = Buffer.from(
      '--XyZ\r\nContent-Disposition: form-data; name="mobile_number"\r\n\r\n447911123456\r\n' +
        '--XyZ\r\nContent-Disposition: form-data; name="fingerprint"; filename="f.jpg"\r\n\r\n',
    );
    const sent = Buffer.concat([start, jpeg.subarray(0, 1000)]);
    server.logs.length = 0;
    await abandonUpload(port, head(sent.length + 50_000), sent);
    await expect
      .poll(async () => (await server.services.audit.query({ limit: 1 }))[0]?.route, { timeout: 5000 })
      .toBe('/v2/verify');
    const [row] = await server.services.audit.query({ limit: 1 });
    expect(row).toMatchObject({ httpStatus: 499, reason: 'client_closed' });
    expect(row?.resultStatus).toBeNull();
    const logs = server.logs.join('\n');
    expect(logs).not.toMatch(/"level":50/);
    expect(logs).not.toContain('unhandled error');
    // The server still answers.
    const health = await fetch(`http://127.0.0.1:${port}/docs/fingerprint/api/`);
    expect(health.status).toBe(200);
  });
});
