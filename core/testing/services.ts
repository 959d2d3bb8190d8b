import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { buildServer } from '../http/app.js';
import {
  createServices,
  disposeServices,
  type Services,
  type ServicesOptions,
} from '../services/container.js';

/** A server over a fresh temporary data directory, with everything it logged. */
export interface TestServer {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  logs: string[];
  close(): Promise<void>;
}

/** Build a real app over real SQLite in a temp dir; `engines: false` leaves every engine unbuilt. */
export async function startTestServer(options: Partial<ServicesOptions> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-test-'));
  const services = await createServices({ dataDir, engines: false, ...options });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = await buildServer(services, { logger: { level: 'debug', stream } });
  return {
    app,
    services,
    dataDir,
    logs,
    close: async () => {
      await app.close();
      await disposeServices(services);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
