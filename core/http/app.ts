import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Services } from '../services/container.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../settings/defaults.js';
import { installAdmission, RequestAdmission } from './admission.js';
import { installAuditHook } from './audit-hook.js';
import { installAuth } from './auth.js';
import { installErrorHandling } from './error-handler.js';
import { installJsonBodyParser } from './json-body.js';
import { redactedRequest } from './log-redaction.js';
import { installMediaTypeCheck } from './media-type.js';
import { installOpenApi } from './openapi.js';
import './request-context.js';
import { installRequestResources } from './request-resources.js';
import { registerConsoleRoutes } from './routes/console/index.js';
import { registerDocumentRoutes } from './routes/documents.js';
import { registerFaceRoutes } from './routes/face.js';
import { registerFingerprintRoutes } from './routes/fingerprint.js';
import { registerOcrRoutes } from './routes/ocr.js';
import { registerOrchestratorRoutes } from './routes/orchestrator.js';
import { registerServiceRoots } from './routes/service-roots.js';
import { registerVerifyRoute } from './routes/v2-verify.js';

/** Options of the HTTP app (not of the listener). */
export interface ServerOptions {
  /** pino logger options or false; tests pass a stream to inspect what is logged. */
  logger?: FastifyServerOptions['logger'];
  /** Host and port the listener binds, so console routes can refuse foreign Host headers. */
  host?: string;
  port?: number;
  /** Refuse a heavy request expected to wait longer than this before it starts (503), ms. Default 2000. */
  maxWaitMs?: number;
  /** Timeouts for slow or idle clients. */
  timeouts?: Partial<ServerTimeouts>;
}

/** How long the server waits on a client before it closes the connection (docs/reliability.md). */
export interface ServerTimeouts {
  /** From connection (or the previous answer) to the end of a request's headers, ms. */
  headersMs: number;
  /** From connection to the end of a request's body, ms. */
  requestMs: number;
  /** An idle keep-alive connection between requests, ms. */
  keepAliveMs: number;
}

/** Defaults: headers in 10 s, a whole 40 MB upload at 1 MB/s, keep-alive as browsers expect. */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 };

/** Largest JSON body: three base64 images at the per-file limit (4/3 overhead) plus fields. */
function jsonBodyLimit(services: Services): number {
  return Math.ceil((services.limits.maxFileBytes * 4) / 3) * 3 + 1024 * 1024;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Address the listener binds (console routes refuse other Host headers). */
    idvBind: { host: string; port: number };
    /** The request queues heavy routes are admitted by. */
    idvAdmission: RequestAdmission;
  }
}

/** The logger options with request URLs redacted (mobile numbers masked, keys removed) in every log line. */
function redactingLogger(
  logger: ServerOptions['logger'],
): Exclude<NonNullable<FastifyServerOptions['logger']>, true> {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: redactedRequest } };
}

/** Build the Fastify app over the given services (no listening: see core/server.ts). */
export async function buildServer(services: Services, options: ServerOptions = {}): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    // Timeouts are checked once a second (Node's default is every 30 s, which would triple a 10 s limit).
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: 1000 },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    logger: redactingLogger(options.logger),
    genReqId: () => crypto.randomUUID(),
    bodyLimit: jsonBodyLimit(services),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  // Routes are registered with explicit functions (no autoload) so bundling into an asar keeps working.
  installJsonBodyParser(app);
  await installOpenApi(app);
  await app.register(multipart, { limits: { fileSize: services.limits.maxFileBytes, files: 6, fields: 20 } });
  installErrorHandling(app);
  installRequestResources(app);
  installAuth(app, services);
  const admission = new RequestAdmission(
    options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs },
  );
  installAdmission(app, admission);
  app.decorate('idvAdmission', admission);
  installMediaTypeCheck(app);
  installAuditHook(app, services);
  registerServiceRoots(app, services);
  registerVerifyRoute(app, services);
  registerFingerprintRoutes(app, services);
  registerFaceRoutes(app, services);
  registerDocumentRoutes(app, services);
  registerOcrRoutes(app, services);
  registerOrchestratorRoutes(app, services);
  app.decorate('idvBind', { host: options.host ?? DEFAULT_HOST, port: options.port ?? DEFAULT_PORT });
  await registerConsoleRoutes(app, services);
  await app.ready();
  return app;
}
