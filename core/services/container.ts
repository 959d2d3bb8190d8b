import { verifyManifestFiles } from '../models/registry.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../imaging/limits.js';
import { openStore, type Store } from '../storage/db.js';
import { SettingsStore } from '../storage/settings.js';
import { ApiKeyService } from './api-keys.js';
import { AuditLog } from './audit-log.js';
import type { DocumentEngine } from '../contracts/document-engine.js';
import type { FaceEngine, LivenessEngine } from '../contracts/face-engine.js';
import type { FingerprintEngine } from '../contracts/fingerprint-engine.js';
import type { OcrEngine } from '../contracts/ocr-engine.js';
import { attachOrchestrator } from './orchestrator/attach.js';
import type { OrchestratorService } from './orchestrator/service.js';
import { createDocumentEngine } from '../document/index.js';
import { disposeMrzReader, readMrz } from '../document/mrz/index.js';
import { OcrService, TesseractPool } from '../document/ocr/index.js';
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
    disposers: [
      () => {
        store.close();
      },
    ],
  };
  if (options.engines !== false) await loadEngines(services, options);
  // After the engines: it orchestrates the face and liveness engines.
  if (options.engines !== false) await attachOrchestrator(services, options.queueUrl);
  return services;
}

/** Every engine. A load failure is fatal: never carry on with a half-loaded model. */
async function loadEngines(services: Services, _options: ServicesOptions): Promise<void> {
  const broken = verifyManifestFiles().filter((m) => !m.ok);
  if (broken.length > 0) {
    throw new Error(
      `Model files failed their check: ${broken.map((m) => `${m.name} (${m.error ?? 'invalid'})`).join('; ')}. Run npm ci.`,
    );
  }
  const fingerprint = new FingerprintService({
    db: services.store.db,
    dataDir: services.store.dataDir,
    settings: services.settings,
  });
  services.disposers.push(() => fingerprint.close());
  services.fingerprint = fingerprint;
  const faceEngine = await createFaceEngine({ settings: services.settings });
  services.disposers.push(() => faceEngine.dispose());
  services.face = faceEngine;
  services.liveness = faceEngine;
  // After the face engine, whose detector finds ghost portraits.
  const document = createDocumentEngine({ db: services.store.db, readMrz, face: faceEngine });
  services.disposers.push(
    () => document.dispose(),
    () => disposeMrzReader(),
  );
  await document.warmUp();
  services.document = document;
  // The same MRZ reader, tesseract.js workers for printed text, a barcode worker.
  const printed = new TesseractPool();
  const barcodes = new BarcodeReader();
  services.disposers.push(
    () => printed.dispose(),
    () => barcodes.dispose(),
  );
  services.ocr = new OcrService({ readMrz, printed, readBarcode: (image) => barcodes.read(image) });
}

/** Release every resource (workers, model sessions, broker connections, the database). */
export async function disposeServices(services: Services): Promise<void> {
  for (const dispose of [...services.disposers].reverse()) await dispose();
  services.disposers.length = 0;
}
