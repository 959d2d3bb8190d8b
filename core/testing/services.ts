import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { createFaceEngine, type FaceEngineImpl } from '../face/index.js';
import { FingerprintService } from '../fingerprint/index.js';
import { loadOrCreateTemplateKey } from '../fingerprint/template/index.js';
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

/**
 * Give a test server the real fingerprint engine (over its database and settings, one extraction worker) without
 * loading the other engines' models.
 */
export function attachFingerprintEngine(server: TestServer): FingerprintService {
  const engine = new FingerprintService({
    enrollments: server.services.store.enrollments,
    templateKey: loadOrCreateTemplateKey(server.dataDir),
    settings: server.services.settings,
    pool: { size: 1 },
  });
  server.services.fingerprint = engine;
  server.services.disposers.push(() => engine.close());
  return engine;
}

/** Give a test server the real face engine as its face and liveness engines (models loaded once, disposed on close). */
export async function attachFaceEngine(server: TestServer): Promise<FaceEngineImpl> {
  const engine = await createFaceEngine({ settings: server.services.settings });
  server.services.face = engine;
  server.services.liveness = engine;
  server.services.disposers.push(() => engine.dispose());
  return engine;
}
