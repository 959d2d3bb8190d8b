import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/services.js';
import { redactUrl } from './log-redaction.js';

describe('what reaches the logs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('masks mobile numbers in paths and keys or numbers in query strings', async () => {
    const key = (await server.services.keys.create('query-string caller')).key;
    const urls = [
      '/docs/fingerprint/api/enrollments/447911123456',
      '/docs/fingerprint/api/enrollments/%2B44%207911%20123456',
      `/docs/orchestrator/api/events?after=0&x-api-key=${encodeURIComponent(key)}`,
      `/docs/orchestrator/api/config?apikey=${key}&mobile=447911123456`,
      `/v9/${key}/447911123456`,
    ];
    server.logs.length = 0;
    for (const url of urls) await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    await server.app.inject({ method: 'DELETE', url: urls[0]! });
    const logs = server.logs.join('\n');
    expect(logs).toContain('incoming request');
    expect(logs).not.toContain('447911123456');
    expect(logs).not.toContain('7911 123456');
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(15));
    expect(logs).toContain('/docs/fingerprint/api/enrollments/+4479*****456');
    expect(logs).toContain('after=0');
  });

  it('keeps what is not personal', () => {
    expect(redactUrl('/docs/orchestrator/api/events?after=120&limit=50')).toBe(
      '/docs/orchestrator/api/events?after=120&limit=50',
    );
    expect(redactUrl('/v2/verify')).toBe('/v2/verify');
    expect(redactUrl('/api/console/audit?mobile=%2B4479*****456&limit=100')).toBe(
      '/api/console/audit?mobile=%2B4479*****456&limit=100',
    );
    expect(redactUrl('/x?token=abc&password=hunter2')).toBe('/x?token=[redacted]&password=[redacted]');
  });
});
