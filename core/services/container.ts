import crypto from 'node:crypto';
import path from 'node:path';
import type { DocumentEngine } from '../contracts/document-engine.js';
import type { FaceEngine, LivenessEngine } from '../contracts/face-engine.js';
import type { FingerprintEngine } from '../contracts/fingerprint-engine.js';
import type { OcrEngine } from '../contracts/ocr-engine.js';
import type { Store } from '../contracts/store.js';
import { createDocumentEngine, DocumentWorkers } from '../document/index.js';
import { BarcodeReader } from '../document/ocr/barcode.js';
import { OcrService, TesseractPool } from '../document/ocr/index.js';
import { createFaceEngine } from '../face/index.js';
import { FingerprintService } from '../fingerprint/index.js';
import { KEY_FILE_NAME, loadOrCreateTemplateKeyFile } from '../fingerprint/template/index.js';
import { DecodeBudget } from '../imaging/decode-budget.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../imaging/limits.js';
import { verifyManifestFiles } from '../models/registry.js';
import { Settings } from '../settings/settings.js';
import { openStore } from '../storage/open-store.js';
import { ApiKeyService } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import { ConsoleAccounts } from './console/accounts.js';
import { ConsoleSessions } from './console/sessions.js';
import { attachOrchestrator } from './orchestrator/attach.js';
import type { OrchestratorService } from './orchestrator/service.js';

/**
 * Everything the HTTP layer calls. An engine left undefined is not built (or failed to load): its routes
 * answer 501 NOT_IMPLEMENTED with a clear message instead of a fake result.
 */
export interface Services {
  /** The data directory (the SQLite store, the template key). */
  dataDir: string;
  /** True when the store is shared with other replicas (PostgreSQL). */
  sharedStore: boolean;
  store: Store;
  settings: Settings;
  keys: ApiKeyService;
  audit: AuditLog;
  accounts: ConsoleAccounts;
  sessions: ConsoleSessions;
  limits: ImageLimits;
  /** Decoded bytes of uploads all requests may hold at once (docs/reliability.md). */
  decodeBudget: DecodeBudget;
  fingerprint?: FingerprintEngine;
  face?: FaceEngine;
  liveness?: LivenessEngine;
  document?: DocumentEngine;
  /** MRZ, printed text and licence barcodes into fields. */
  ocr?: OcrEngine;
  /** Weighted liveness + face match, durable outbox, broker relay, LAN event feed. */
  orchestrator?: OrchestratorService;
  /** Resources to release on shutdown, in reverse order of creation. */
  disposers: (() => Promise<void> | void)[];
}

/** How to build the services. */
export interface ServicesOptions {
  /** Data directory: the SQLite store (when no `store` URL is given) and, by default, the template key file. */
  dataDir: string;
  /** A shared PostgreSQL store (postgres://user@host:port/db) instead of the data directory's SQLite file. */
  store?: string | undefined;
  /**
   * The template key file (32 bytes, created 0600 when absent); replicas of one store share it. Defaults to
   * `fingerprint-template.key` in the data directory.
   */
  templateKeyFile?: string | undefined;
  limits?: ImageLimits;
  /** Decoded bytes of uploads all requests may hold at once. Default 256 MiB. */
  decodeBudgetBytes?: number;
  /** Longest wait for room in the decode budget before a request is refused with 503, ms. Default 1000. */
  decodeWaitMs?: number;
  /** NATS URL for the orchestrator's events (e.g. nats://127.0.0.1:4222); none means the embedded feed only. */
  queueUrl?: string;
  /** Load the engines (models, workers); false gives a foundation-only container for fast tests. */
  engines?: boolean;
}

/** Default decode budget: five /v2/verify requests' images at their working sizes (about 48 MB each). */
export const DEFAULT_DECODE_BUDGET_BYTES = 256 * 1024 * 1024;

/** Open the store and create every service and engine: the one place where the parts are wired together. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const store = await openStore({ dataDir: options.dataDir, url: options.store });
  let settings: Settings;
  try {
    settings = await Settings.open(store.settings);
  } catch (error) {
    await store.close();
    throw error;
  }
  const services: Services = {
    dataDir: path.resolve(options.dataDir),
    sharedStore: options.store !== undefined,
    store,
    settings,
    keys: new ApiKeyService(store.apiKeys, settings),
    audit: new AuditLog(store.audit),
    accounts: new ConsoleAccounts(store.consoleAccounts),
    sessions: new ConsoleSessions(store.consoleSessions),
    limits: options.limits ?? DEFAULT_IMAGE_LIMITS,
    decodeBudget: new DecodeBudget({
      bytes: options.decodeBudgetBytes ?? DEFAULT_DECODE_BUDGET_BYTES,
      maxWaitMs: options.decodeWaitMs ?? 1000,
    }),
    disposers: [
      () => store.close(),
      () => {
        settings.close();
      },
    ],
  };
  if (options.engines === false) return services;
  try {
    await loadEngines(services, options.templateKeyFile);
    // After the engines: it orchestrates the face and liveness engines.
    await attachOrchestrator(services, options.queueUrl);
  } catch (error) {
    await disposeServices(services);
    throw error;
  }
  return services;
}

/** Every engine. A load failure is fatal: never carry on with a half-loaded model. */
async function loadEngines(services: Services, templateKeyFile: string | undefined): Promise<void> {
  const broken = verifyManifestFiles().filter((m) => !m.ok);
  if (broken.length > 0) {
    throw new Error(
      `Model files failed their check: ${broken.map((m) => `${m.name} (${m.error ?? 'invalid'})`).join('; ')}. Run npm ci.`,
    );
  }
  const keyFile = path.resolve(templateKeyFile ?? path.join(services.dataDir, KEY_FILE_NAME));
  const templateKey = loadOrCreateTemplateKeyFile(keyFile);
  await checkTemplateKey(services.store, templateKey, keyFile);
  const fingerprint = new FingerprintService({
    enrollments: services.store.enrollments,
    templateKey,
    settings: services.settings,
    followChanges: services.sharedStore,
  });
  services.disposers.push(() => fingerprint.close());
  services.fingerprint = fingerprint;
  const faceEngine = await createFaceEngine({ settings: services.settings });
  services.disposers.push(() => faceEngine.dispose());
  services.face = faceEngine;
  services.liveness = faceEngine;
  // One document lane (MRZ reading, ORB marks, PDF417) serves the document engine and the OCR sub-service.
  const documentWorkers = new DocumentWorkers({ preloadMrz: true });
  services.disposers.push(() => documentWorkers.close());
  const readMrz = documentWorkers.readMrz;
  // After the face engine, whose detector finds ghost portraits.
  const document = await createDocumentEngine({
    profiles: services.store.documentProfiles,
    marks: services.store.referenceMarks,
    readMrz,
    workers: documentWorkers,
    face: faceEngine,
  });
  services.disposers.push(() => document.dispose());
  await document.warmUp();
  services.document = document;
  // The same MRZ reader, tesseract.js workers for printed text, the barcode decoder on the document lane.
  const printed = new TesseractPool();
  const barcodes = new BarcodeReader(documentWorkers);
  services.disposers.push(() => printed.dispose());
  services.ocr = new OcrService({
    readMrz,
    printed,
    readBarcode: (image) => barcodes.read(image),
    lanes: [documentWorkers, printed],
  });
}

/** What the store keeps of the template key: an HMAC of a constant under it, which does not reveal the key. */
export function templateKeyCheck(key: Buffer): string {
  return crypto.createHmac('sha256', key).update('idv template key check v1').digest('hex');
}

/**
 * Refuse to start with a template key other than the one the store's templates are sealed with (another replica's
 * key file, a replaced file): every template would fail to open. The first start records the key's check value.
 */
async function checkTemplateKey(store: Store, key: Buffer, keyFile: string): Promise<void> {
  const mine = templateKeyCheck(key);
  if ((await store.keyCheck(mine)) !== mine) {
    throw new Error(
      `The template key in ${keyFile} is not the key this store's templates are sealed with. Every replica of a ` +
        'store needs the same key file: copy it from a replica that runs (--template-key-file), never create a new one.',
    );
  }
}

/** Release every resource (workers, model sessions, broker connections, the database). */
export async function disposeServices(services: Services): Promise<void> {
  for (const dispose of [...services.disposers].reverse()) await dispose();
  services.disposers.length = 0;
}
