import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { buildServer, type ServerTimeouts } from './http/app.js';
import { createServices, disposeServices, type Services } from './services/container.js';

/** Options of a running server (the headless mode and the Electron main process both use it). */
export interface StartOptions {
  host: string;
  port: number;
  dataDir: string;
  /** A shared PostgreSQL store URL instead of the data directory's SQLite file. */
  store?: string | undefined;
  /** The template key file replicas share (default: in the data directory). */
  templateKeyFile?: string | undefined;
  queueUrl?: string;
  logLevel?: string;
  /** Refuse a heavy request expected to wait longer than this before it starts (503), ms. */
  maxWaitMs?: number;
  /** Decoded bytes of uploads all requests may hold at once. */
  decodeBudgetBytes?: number;
  /** Timeouts for slow or idle clients. */
  timeouts?: Partial<ServerTimeouts>;
}

/** A listening server and how to stop it. */
export interface RunningServer {
  url: string;
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
}

/**
 * How much each isolate's heap may grow between full collections, in percent. The server's isolates (main and
 * workers) keep small live heaps and allocate per request; under V8's own growth rule they restarted marking about
 * once a verification. Four times the live heap costs tens of megabytes and saves an eighth to a sixth of the CPU
 * of a verification.
 */
const HEAP_GROWING_PERCENT = 300;

/** Create the services, build the app and listen; fails fast if a model or the store cannot load. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  // Process-wide and read at every heap limit V8 computes, so the worker isolates started below follow it too.
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const services = await createServices({
    dataDir: options.dataDir,
    store: options.store,
    templateKeyFile: options.templateKeyFile,
    ...(options.queueUrl ? { queueUrl: options.queueUrl } : {}),
    ...(options.decodeBudgetBytes === undefined ? {} : { decodeBudgetBytes: options.decodeBudgetBytes }),
  });
  let app: FastifyInstance;
  try {
    app = await buildServer(services, {
      host: options.host,
      port: options.port,
      ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      logger: {
        level: options.logLevel ?? 'info',
        redact: ['req.headers["x-api-key"]', 'req.headers.cookie'],
      },
    });
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await disposeServices(services);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    app,
    services,
    close: async () => {
      await app.close();
      await disposeServices(services);
    },
  };
}
