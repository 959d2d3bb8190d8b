import { CoreError } from '../errors.js';
import type { DecodedImage } from '../imaging/decode.js';
import type { FingerprintEngine, StepResult } from '../services/contracts.js';
import { maskMobile } from '../services/mobile.js';
import type { Database } from '../storage/db.js';
import type { SettingsStore } from '../storage/settings.js';
import { calibrationFor, estimateFmr, FINGERPRINT_MODEL_VERSION, scoreAtFmr } from './calibration.js';
import {
  EnrollmentStore,
  type EnrollmentMeta,
  type EnrollmentRow,
  type IndexRow,
} from './enrollment-store.js';
import { computeCylinders, type Cylinders } from './index/cylinders.js';
import { computeEmbedding, EMBEDDING_VERSION } from './index/embedding.js';
import { GalleryIndex } from './index/gallery-index.js';
import { compareFeatures } from './match/index.js';
import {
  FeatureCache,
  firstStage,
  openCylinders,
  openStoredFeatures,
  sealCylinders,
  searchGallery,
  type SearchCandidate,
} from './search.js';
import { readFingerprintSettings, type FingerprintSettings } from './settings.js';
import { encodeTemplate, loadOrCreateTemplateKey, sealTemplate } from './template/index.js';
import type { FingerprintFeatures } from './types.js';
import { ExtractionPool, type ExtractionPoolOptions } from './worker/pool.js';

/** Enrollments loaded into the in-memory search index per event-loop turn (about 90 ms of work). */
const INDEX_LOAD_CHUNK = 500;
/** Enrollments whose index entries are rebuilt per event-loop turn after an index-version change (~160 ms). */
const REINDEX_CHUNK = 100;

/** How to build the engine. */
export interface FingerprintServiceOptions {
  db: Database;
  /** Data directory holding the template key file. */
  dataDir: string;
  settings?: SettingsStore;
  /** Worker pool settings (size 0 extracts on the calling thread). */
  pool?: ExtractionPoolOptions;
  /** Model version written into new templates; defaults to the extractor's. Tests simulate upgrades with it. */
  modelVersion?: string;
}

/** Enrollment metadata as the API shows it. */
export interface EnrollmentInfo {
  mobile_number: string;
  model_version: string;
  quality_score: number;
  minutiae_count: number;
  created_at: string;
  updated_at: string;
  reenrollment_required: boolean;
}

/**
 * The fingerprint engine: extraction on worker threads, encrypted versioned templates in SQLite, 1:1
 * verification, 1:N search through the sqlite-vec index, de-duplication and model-version checks.
 */
export class FingerprintService implements FingerprintEngine {
  readonly modelVersion: string;
  private readonly store: EnrollmentStore;
  private readonly key: Buffer;
  private readonly pool: ExtractionPool;
  private readonly settings: SettingsStore | undefined;
  private readonly cache = new FeatureCache();
  /** Decrypted cylinders and the minutia hash index of the search: in memory only, rebuilt at every start. */
  private readonly index = new GalleryIndex();
  private readonly loading: Promise<void>;
  private indexError: string | undefined;
  private closed = false;

  constructor(options: FingerprintServiceOptions) {
    this.modelVersion = options.modelVersion ?? FINGERPRINT_MODEL_VERSION;
    this.store = new EnrollmentStore(options.db);
    this.key = loadOrCreateTemplateKey(options.dataDir);
    this.pool = new ExtractionPool(options.pool);
    this.settings = options.settings;
    this.loading = this.loadIndex();
  }

  /**
   * Resolves once the in-memory search index holds every enrollment. Until then searches and duplicate checks
   * work, but read the candidates not loaded yet from the database (slower).
   */
  indexLoaded(): Promise<void> {
    return this.loading;
  }

  /**
   * Give enrollments indexed by an older index version (or migrated without cylinders, which need the template
   * key) their vector and cylinders again, from the decrypted template, all at once. The engine does this itself
   * in the background after it starts (loadIndex); this is for tools and tests. Returns the number rebuilt.
   */
  reindex(): number {
    let count = 0;
    for (let after: number | undefined = 0; after !== undefined;) {
      const next = this.reindexChunk(after);
      count += next.rows;
      after = next.after;
    }
    return count;
  }

  /**
   * Rebuild the next chunk of out-of-date index entries after id `after`: how many, and the id to continue after
   * (undefined when none are left).
   */
  private reindexChunk(after: number): { rows: number; after: number | undefined } {
    const rows = this.store.listUnindexed(EMBEDDING_VERSION, after, REINDEX_CHUNK);
    this.reindexRows(rows);
    return { rows: rows.length, after: rows.length < REINDEX_CHUNK ? undefined : rows[rows.length - 1]!.id };
  }

  /** Rebuild the index entries of these rows from their templates, in one transaction. About 1.6 ms a row. */
  private reindexRows(rows: EnrollmentRow[]): void {
    this.store.transaction(() => {
      for (const row of rows) {
        const features = openStoredFeatures(row, this.key);
        const cylinders = computeCylinders(features);
        this.store.reindex(
          row.id,
          computeEmbedding(features),
          sealCylinders(cylinders, this.key, row.mobile),
          EMBEDDING_VERSION,
        );
        if (row.modelVersion === this.modelVersion) this.index.put(row.id, row.mobile, cylinders);
      }
    });
  }

  /**
   * After every start, in the background (chunks of rows read fresh from the database, the event loop served
   * between chunks): first rebuild the index entries of enrollments of an older index version (after an upgrade:
   * about 1.6 ms each, 157 s at 100k, once), then fill the in-memory index from every enrollment's sealed
   * cylinders (decrypted once here; see GalleryIndex; about 0.18 ms each, 19 s at 100k, +600 MB RSS). Searches
   * work meanwhile: they read the candidates not held yet from the database. Enrollments and deletes made
   * meanwhile update the index themselves; a chunk read after them sees them.
   */
  private async loadIndex(): Promise<void> {
    this.index.loaded = false;
    const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    try {
      for (
        let after = this.reindexChunk(0).after;
        after !== undefined;
        after = this.reindexChunk(after).after
      ) {
        await pause();
        if (this.closed) return;
      }
      for (let after = 0; ;) {
        const rows = this.store.indexRowsAfter(this.modelVersion, after, INDEX_LOAD_CHUNK);
        for (const row of rows) {
          // Held already (reindexed or enrolled since the start): that entry is current.
          if (this.index.get(row.id)) continue;
          const cylinders = this.storedCylinders(row);
          if (cylinders) this.index.put(row.id, row.mobile, cylinders);
        }
        if (rows.length < INDEX_LOAD_CHUNK) break;
        after = rows[rows.length - 1]!.id;
        await pause();
        if (this.closed) return;
      }
      this.index.compact();
      this.index.loaded = true;
    } catch (err) {
      // A closed database (the engine stopped mid-load) or an unreadable row: searches keep reading what is missing.
      this.indexError = err instanceof Error ? err.message : String(err);
    }
  }

  /** The stored cylinders of a row, or undefined when it has none of this cylinder version. */
  private storedCylinders(row: IndexRow): Cylinders | undefined {
    if (!row.cylinders) return undefined;
    try {
      return openCylinders(row.cylinders, this.key, row.mobile);
    } catch {
      // Another cylinder version: rebuilt by the reindex pass, which runs before this one.
      return undefined;
    }
  }

  /** Extract features from an upload on the worker pool. */
  extract(image: DecodedImage): Promise<FingerprintFeatures> {
    const input = { width: image.width, height: image.height, rgb: image.rgb };
    // Many files carry a placeholder density (72 or 96 dpi from JFIF/PNG writers): only a plausible fingerprint
    // sensor resolution is trusted, anything else is taken as the usual 500 dpi.
    const dpi = image.dpi !== undefined && image.dpi >= 250 && image.dpi <= 1500 ? image.dpi : undefined;
    return this.pool.extract(dpi === undefined ? input : { ...input, dpi });
  }

  /** Current 1:1 decision threshold (score at FMR 1/N, under the current turn setting). */
  threshold(): number {
    const settings = readFingerprintSettings(this.settings);
    return scoreAtFmr(1 / settings.oneInN, settings.turn);
  }

  async enroll(
    mobileE164: string,
    image: DecodedImage,
    _context: { requestId: string },
  ): Promise<Record<string, unknown>> {
    return this.enrollFeatures(mobileE164, await this.extract(image));
  }

  /**
   * Enroll already extracted features (the image path above, imports and benchmarks). `skipDuplicateCheck` is for
   * bulk loads of galleries known to be distinct, where a 1:N search per row would dominate the load time.
   */
  enrollFeatures(
    mobileE164: string,
    features: FingerprintFeatures,
    options: { skipDuplicateCheck?: boolean } = {},
  ): Record<string, unknown> {
    refuseNonPrint(features);
    const settings = readFingerprintSettings(this.settings);
    const quality = Math.round(features.quality);
    if (quality < settings.qualityFloor || features.minutiae.length < settings.minMinutiae) {
      const reason = quality < settings.qualityFloor ? 'low_image_quality' : 'too_few_minutiae';
      throw new CoreError(
        'QUALITY_TOO_LOW',
        `Fingerprint quality is too low to enroll (${reason.replace(/_/g, ' ')}); capture it again.`,
        {
          field: 'file',
          extra: {
            quality_score: quality,
            minutiae_count: features.minutiae.length,
            quality_floor: settings.qualityFloor,
            reason,
          },
        },
      );
    }
    const duplicate = options.skipDuplicateCheck
      ? undefined
      : this.findDuplicate(mobileE164, features, settings);
    const duplicateOf = duplicate ? maskMobile(duplicate.mobile) : undefined;
    if (duplicate && settings.dedup === 'reject') {
      throw new CoreError('CONFLICT', 'This finger is already enrolled under another mobile number.', {
        extra: { duplicate_of: duplicateOf, duplicate_score: duplicate.score },
      });
    }
    const sealed = sealTemplate(
      encodeTemplate({ modelVersion: this.modelVersion, features }),
      this.key,
      mobileE164,
    );
    const cylinders = computeCylinders(features);
    const { id, replaced } = this.store.save({
      mobile: mobileE164,
      template: sealed,
      modelVersion: this.modelVersion,
      embeddingVersion: EMBEDDING_VERSION,
      quality,
      minutiaeCount: features.minutiae.length,
      embedding: computeEmbedding(features),
      cylinders: sealCylinders(cylinders, this.key, mobileE164),
    });
    this.index.put(id, mobileE164, cylinders);
    return {
      quality_score: quality,
      ...likenessField(features),
      minutiae_count: features.minutiae.length,
      model_version: this.modelVersion,
      replaced,
      ...(duplicate ? { duplicate_of: duplicateOf, duplicate_score: duplicate.score } : {}),
    };
  }

  async verify(mobileE164: string, image: DecodedImage): Promise<StepResult> {
    const row = this.store.get(mobileE164);
    if (!row) return rejected(0, 'not_enrolled', 'No fingerprint is enrolled for this mobile number.');
    if (row.modelVersion !== this.modelVersion) {
      return rejected(
        0,
        'reenrollment_required',
        `The enrolled template was made by fingerprint model ${row.modelVersion}; re-enroll with ${this.modelVersion}.`,
      );
    }
    const probe = await this.extract(image);
    if (probe.likeness?.isFingerprint === false) {
      return {
        ...rejected(0, 'not_a_fingerprint', `This image is not a fingerprint. ${probe.likeness.reason}`),
        extra: { mobile_number: mobileE164, ...likenessField(probe) },
      };
    }
    const { turn, oneInN } = readFingerprintSettings(this.settings);
    const score = compareFeatures(probe, openStoredFeatures(row, this.key), turn);
    const threshold = scoreAtFmr(1 / oneInN, turn);
    const extra = {
      mobile_number: mobileE164,
      threshold,
      estimated_fmr: estimateFmr(score, turn),
      ...likenessField(probe),
    };
    if (score >= threshold)
      return { status: 'SUCCESS', score, message: 'Fingerprint matches the enrollment.', extra };
    return {
      ...rejected(score, 'no_match', 'Fingerprint does not match the one enrolled for this mobile number.'),
      extra,
    };
  }

  /** 1:N identification: the `k` best enrollments for an image, with scores and estimated FMRs. */
  async search(
    image: DecodedImage,
    k = 5,
  ): Promise<{ candidates: SearchCandidate[]; threshold: number; gallery_size: number }> {
    return this.searchFeatures(await this.extract(image), k);
  }

  /** 1:N identification from features. */
  searchFeatures(
    probe: FingerprintFeatures,
    k = 5,
  ): { candidates: SearchCandidate[]; threshold: number; gallery_size: number } {
    const settings = readFingerprintSettings(this.settings);
    const candidates = searchGallery(
      this.store,
      this.key,
      this.index,
      probe,
      {
        k,
        candidates: settings.candidates,
        hashCandidates: settings.hashCandidates,
        starCandidates: settings.starCandidates,
        shortlist: Math.max(k, settings.shortlist),
        modelVersion: this.modelVersion,
        turn: settings.turn,
      },
      this.cache,
    );
    return { candidates, threshold: this.threshold(), gallery_size: this.store.count() };
  }

  /** The enrollment ids the first search stage hands to the cylinders for these features (benchmarks). */
  firstStageCandidates(probe: FingerprintFeatures): number[] {
    const settings = readFingerprintSettings(this.settings);
    return firstStage(this.store, probe, computeCylinders(probe), settings, this.index).ids;
  }

  /** Enrollment metadata of a number, or undefined. */
  enrollment(mobileE164: string): EnrollmentInfo | undefined {
    const row = this.store.get(mobileE164);
    return row ? this.info(row) : undefined;
  }

  /** Delete a number's template and vector; false when it was not enrolled. */
  deleteEnrollment(mobileE164: string): boolean {
    const row = this.store.get(mobileE164);
    const removed = this.store.remove(mobileE164);
    if (row) this.index.delete(row.id);
    if (removed) this.cache.clear();
    return removed;
  }

  /** Enrollments made by another model version, which must be re-enrolled. */
  reenrollmentReport(): EnrollmentInfo[] {
    return this.store.listOutdated(this.modelVersion).map((row) => this.info(row));
  }

  /** Quality and minutiae of an image without enrolling it (the console's capture preview). */
  async preview(image: DecodedImage): Promise<{
    width: number;
    height: number;
    quality: number;
    minutiae: { x: number; y: number; angle: number; type: string }[];
    likeness?: { score: number; isFingerprint: boolean; reason: string };
  }> {
    const features = await this.extract(image);
    const minutiae = features.minutiae.map((m) => ({ x: m.x, y: m.y, angle: m.angle, type: m.type }));
    return {
      width: features.width,
      height: features.height,
      quality: Math.round(features.quality),
      minutiae,
      ...(features.likeness ? { likeness: features.likeness } : {}),
    };
  }

  /** Operating points offered to the console's threshold picker ("1 false match in N"). */
  calibration(): { source: string; points: { oneInN: number; threshold: number }[] } {
    const { turn } = readFingerprintSettings(this.settings);
    const table = calibrationFor(turn);
    return {
      source: `Impostor scores of ${table.impostorCount} FVC 2002/2004 pairs, model ${table.modelVersion}, turn ${turn}`,
      points: [100, 1_000, 10_000, 100_000, 1_000_000].map((oneInN) => ({
        oneInN,
        threshold: scoreAtFmr(1 / oneInN, turn),
      })),
    };
  }

  health(): Record<string, unknown> {
    return {
      model_version: this.modelVersion,
      embedding_version: EMBEDDING_VERSION,
      enrollments: this.store.count(),
      indexed_in_memory: this.index.size,
      search_index: this.index.loaded ? 'ready' : this.indexError ? 'degraded' : 'loading',
      ...(this.indexError ? { search_index_error: this.indexError } : {}),
      extraction_pool: this.pool.stats(),
    };
  }

  /** Stop loading the search index and the worker threads. */
  close(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }

  private findDuplicate(
    mobile: string,
    features: FingerprintFeatures,
    settings: Pick<
      FingerprintSettings,
      'dedupOneInN' | 'candidates' | 'hashCandidates' | 'starCandidates' | 'shortlist' | 'turn'
    >,
  ): SearchCandidate | undefined {
    const [best] = searchGallery(
      this.store,
      this.key,
      this.index,
      features,
      {
        k: 1,
        candidates: settings.candidates,
        hashCandidates: settings.hashCandidates,
        starCandidates: settings.starCandidates,
        shortlist: settings.shortlist,
        modelVersion: this.modelVersion,
        turn: settings.turn,
        excludeMobile: mobile,
      },
      this.cache,
    );
    return best && best.score >= scoreAtFmr(1 / settings.dedupOneInN, settings.turn) ? best : undefined;
  }

  private info(row: EnrollmentMeta): EnrollmentInfo {
    return {
      mobile_number: row.mobile,
      model_version: row.modelVersion,
      quality_score: row.quality,
      minutiae_count: row.minutiaeCount,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
      reenrollment_required: row.modelVersion !== this.modelVersion,
    };
  }
}

/** The not-a-fingerprint score as responses carry it, beside the quality score. */
function likenessField(features: FingerprintFeatures): { fingerprint_likeness?: number } {
  return features.likeness ? { fingerprint_likeness: features.likeness.score } : {};
}

/** 422 NOT_A_FINGERPRINT for an image the likeness check refused (faces, documents, blank...), saying why. */
function refuseNonPrint(features: FingerprintFeatures): void {
  if (features.likeness?.isFingerprint !== false) return;
  throw new CoreError('NOT_A_FINGERPRINT', `This image is not a fingerprint. ${features.likeness.reason}`, {
    field: 'file',
    extra: { fingerprint_likeness: features.likeness.score, reason: 'not_a_fingerprint' },
  });
}

function rejected(score: number, reason: string, message: string): StepResult {
  return { status: 'REJECTED', score, message, reason };
}
