import { verifyManifestFiles } from '../models/registry.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../imaging/limits.js';
import { openStore, type Store } from '../storage/db.js';
import { SettingsStore } from '../storage/settings.js';
import { ApiKeyService } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import type { DocumentEngine, FaceEngine, FingerprintEngine } from './contracts.js';
import { attachOrchestrator } from './orchestrator/attach.js';
import type { OrchestratorService } from './orchestrator/service.js';
import { asFacePort, createDocumentEngine, DocumentWorkers } from '../document/index.js';
import { OcrService, TesseractPool } from '../document/ocr/index.js';
import { workersHealth } from '../workers/health.js';
import { BarcodeReader } from '../document/ocr/barcode.js';
import { FingerprintService } from '../fingerprint/index.js';
import { createFaceEngine } from '../face/index.js';

/**
 * Everything the HTTP layer calls. An engine left undefined is not built (or failed to load): its routes
 * answer 501 NOT_IMPLEMENTED with a clear message instead of a fake result.
 */
export interface Services {
  store: Store;
  settings: SettingsStore;
  keys: ApiKeyService;
  audit: AuditLog;
  limits: ImageLimits;
  fingerprint?: FingerprintEngine;
  face?: FaceEngine;
  document?: DocumentEngine;
  /** OCR sub-service (issue 5): MRZ, printed text and licence barcodes into fields. */
  ocr?: OcrService;
  /** Orchestrator (issue 6): weighted liveness + face match, durable outbox, broker relay, LAN event feed. */
  orchestrator?: OrchestratorService;
  /**
   * Health and service-root documents of sub-services not backed by one of the engines above (OCR,
   * orchestrator): set by the engine that implements them. Absent means not built (health answers 503).
   */
  providers: Partial<Record<'ocr' | 'orchestrator', SubServiceProvider>>;
  /** Resources to release on shutdown, in reverse order of creation. */
  disposers: (() => Promise<void> | void)[];
}

/** What a sub-service tells its health and root routes. */
export interface SubServiceProvider {
  health(): Record<string, unknown>;
  root?(): Record<string, unknown>;
}

/** How to build the services. */
export interface ServicesOptions {
  dataDir: string;
  limits?: ImageLimits;
  /** NATS URL for the orchestrator's events (e.g. nats://127.0.0.1:4222); none means the embedded feed only. */
  queueUrl?: string;
  /** Load the engines (models, workers); false gives a foundation-only container for fast tests. */
  engines?: boolean;
}

/** Open the store and create every service and engine. */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const store = openStore(options.dataDir);
  const services: Services = {
    store,
    settings: new SettingsStore(store.db),
    keys: new ApiKeyService(store.db),
    audit: new AuditLog(store.db),
    limits: options.limits ?? DEFAULT_IMAGE_LIMITS,
    providers: {},
    disposers: [
      () => {
        store.close();
      },
    ],
  };
  if (options.engines !== false) await loadEngines(services, options);
  // Orchestrator (issue 6): after the engines, since it orchestrates the face engine.
  if (options.engines !== false) await attachOrchestrator(services, options.queueUrl);
  return services;
}

/** Engines, each wired by its issue. A load failure is fatal: never carry on with a half-loaded model. */
async function loadEngines(services: Services, _options: ServicesOptions): Promise<void> {
  const broken = verifyManifestFiles().filter((m) => !m.ok);
  if (broken.length > 0) {
    throw new Error(
      `Model files failed their check: ${broken.map((m) => `${m.name} (${m.error ?? 'invalid'})`).join('; ')}. Run npm ci.`,
    );
  }
  // fingerprint engine (issue 3)
  const fingerprint = new FingerprintService({
    db: services.store.db,
    dataDir: services.store.dataDir,
    settings: services.settings,
  });
  services.disposers.push(() => fingerprint.close());
  services.fingerprint = fingerprint;
  // face engine (issue 4)
  const faceEngine = await createFaceEngine({ settings: services.settings });
  services.disposers.push(() => faceEngine.dispose());
  services.face = faceEngine;
  // document engine and OCR (issue 5): after the face engine, whose detector finds ghost portraits.
  const face = asFacePort(services.face);
  // One document lane (MRZ reading, ORB marks, PDF417) serves the document engine and the OCR sub-service.
  const documentWorkers = new DocumentWorkers({ preloadMrz: true });
  services.disposers.push(() => documentWorkers.close());
  const readMrz = documentWorkers.readMrz;
  const document = createDocumentEngine({
    db: services.store.db,
    readMrz,
    workers: documentWorkers,
    ...(face ? { face } : {}),
  });
  services.disposers.push(() => document.dispose());
  await document.warmUp();
  services.document = document;
  // OCR sub-service (issue 5): the same MRZ reader, tesseract.js workers for printed text, the barcode decoder.
  const printed = new TesseractPool();
  const barcodes = new BarcodeReader(documentWorkers);
  services.disposers.push(() => printed.dispose());
  services.ocr = new OcrService({ readMrz, printed, readBarcode: (image) => barcodes.read(image) });
  services.providers.ocr = {
    health: () => ({
      status: 'ok',
      models: ['ppocr_rec (MRZ)', 'tesseract.js eng (printed)', 'zxing PDF417 (barcode)'],
      ...workersHealth([documentWorkers, printed]),
    }),
  };
  // orchestrator (issue 6)
}

/** Release every resource (workers, model sessions, broker connections, the database). */
export async function disposeServices(services: Services): Promise<void> {
  for (const dispose of [...services.disposers].reverse()) await dispose();
  services.disposers.length = 0;
}
