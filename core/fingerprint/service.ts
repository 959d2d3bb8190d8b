import { ONE_IN_N_CHOICES } from '../contracts/step-result.js';
import { CoreError } from '../errors.js';
import type { DecodedImage } from '../imaging/decode.js';
import type {
  EnrollContext,
  EnrollmentInfo,
  EnrollOutcome,
  FingerprintEngine,
  FingerprintPreview,
  SearchOutcome,
} from '../contracts/fingerprint-engine.js';
import type {
  EnrollmentMeta,
  EnrollmentRepository,
  EnrollmentRow,
  EnrollmentWrite,
  IndexRow,
} from '../contracts/enrollment-repository.js';
import type { Calibration, EngineHealth, StepResult } from '../contracts/step-result.js';
import { maskMobile } from '../mobile.js';
import type { Settings } from '../settings/settings.js';
import { calibrationFor, estimateFmr, scoreAtFmr } from './calibration.js';
import { FINGERPRINT_MODEL_VERSION } from './model-version.js';
import { computeCylinders, type Cylinders } from './index/cylinders.js';
import { computeEmbedding, EMBEDDING_DIMS, EMBEDDING_VERSION } from './index/embedding.js';
import { GalleryIndex } from './index/gallery-index.js';
import { IndexFollower } from './index-follower.js';
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
import { encodeTemplate, sealTemplate } from './template/index.js';
import type { FingerprintFeatures } from './types.js';
import { ExtractionPool, type ExtractionPoolOptions } from './worker/pool.js';

/** Enrollments loaded into the in-memory search index per event-loop turn (about 90 ms of work). */
const INDEX_LOAD_CHUNK = 500;
/** Enrollments whose index entries are rebuilt per event-loop turn after an index-version change (~160 ms). */
const REINDEX_CHUNK = 100;

/** How to build the engine. */
export interface FingerprintServiceOptions {
  /** Enrollments and their 1:N index material. */
  enrollments: EnrollmentRepository;
  /** AES-256 key sealing templates and cylinders (template/key-file.ts keeps it beside the data). */
  templateKey: Buffer;
  settings?: Settings;
  /** Worker pool settings (size 0 extracts on the calling thread). */
  pool?: ExtractionPoolOptions;
  /** Model version written into new templates; defaults to the extractor's. Tests simulate upgrades with it. */
  modelVersion?: string;
  /**
   * Follow the store's enrollment change feed (a store shared by replicas): other writers' enrollments,
   * re-enrollments and deletions reach the in-memory index, and each search first takes in the changes committed
   * before it. Off for the embedded store, whose only writer is this engine.
   */
  followChanges?: boolean;
}

/**
 * The fingerprint engine: extraction on worker threads, encrypted versioned templates in the store, 1:1
 * verification, 1:N search through the store's vector index and an in-memory index, de-duplication and model-version
 * checks.
 */
export class FingerprintService implements FingerprintEngine {
  readonly modelVersion: string;
  private readonly store: EnrollmentRepository;
  private readonly key: Buffer;
  private readonly pool: ExtractionPool;
  private readonly settings: Settings | undefined;
  private readonly cache = new FeatureCache();
  /** Decrypted cylinders and the minutia hash index of the search: in memory only, rebuilt at every start. */
  private readonly index = new GalleryIndex();
  private readonly loading: Promise<void>;
  private readonly enrolling = new Serial();
  /** Enrollments written or deleted while the index loads: the load leaves them to those writes. */
  private readonly changedSince = new Set<number>();
  private indexError: string | undefined;
  private closed = false;
  /** Other writers' changes, when the store is shared. */
  private readonly follower: IndexFollower | undefined;

  constructor(options: FingerprintServiceOptions) {
    this.modelVersion = options.modelVersion ?? FINGERPRINT_MODEL_VERSION;
    this.store = options.enrollments;
    this.key = options.templateKey;
    this.pool = new ExtractionPool(options.pool);
    this.settings = options.settings;
    this.follower = options.followChanges
      ? new IndexFollower(this.store, (changes) => this.applyChanges(changes))
      : undefined;
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
  async reindex(): Promise<number> {
    let count = 0;
    for (let after: number | undefined = 0; after !== undefined;) {
      const next = await this.reindexChunk(after);
      count += next.rows;
      after = next.after;
    }
    return count;
  }

  /**
   * Rebuild the next chunk of out-of-date index entries after id `after`: how many, and the id to continue after
   * (undefined when none are left).
   */
  private async reindexChunk(after: number): Promise<{ rows: number; after: number | undefined }> {
    const rows = await this.store.listUnindexed(EMBEDDING_VERSION, after, REINDEX_CHUNK);
    await this.reindexRows(rows);
    return { rows: rows.length, after: rows.length < REINDEX_CHUNK ? undefined : rows[rows.length - 1]!.id };
  }

  /** Rebuild the index entries of these rows from their templates, in one transaction. About 1.6 ms a row. */
  private async reindexRows(rows: EnrollmentRow[]): Promise<void> {
    const rebuilt = rows.map((row) => {
      const features = openStoredFeatures(row, this.key);
      return { row, cylinders: computeCylinders(features), embedding: computeEmbedding(features) };
    });
    await this.store.reindex(
      rebuilt.map(({ row, cylinders, embedding }) => ({
        id: row.id,
        embedding,
        cylinders: sealCylinders(cylinders, this.key, row.mobile),
        embeddingVersion: EMBEDDING_VERSION,
      })),
    );
    for (const { row, cylinders } of rebuilt) {
      // Re-enrolled or deleted while this chunk was rebuilt: the newer write's entry stands.
      if (row.modelVersion === this.modelVersion && !this.changedSince.has(row.id))
        this.index.put(row.id, row.mobile, cylinders);
    }
  }

  /**
   * After every start, in the background (chunks of rows read fresh from the database, the event loop served
   * between chunks): first rebuild the index entries of enrollments of an older index version (after an upgrade:
   * about 1.6 ms each, 157 s at 100k, once), then fill the in-memory index from every enrollment's sealed
   * cylinders (decrypted once here; see GalleryIndex; about 0.18 ms each, 19 s at 100k, about 310 MB). Searches
   * work meanwhile: they read the candidates not held yet from the database. Enrollments and deletes made
   * meanwhile update the index themselves; a chunk read after them sees them.
   */
  private async loadIndex(): Promise<void> {
    this.index.loaded = false;
    const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    try {
      // Changes from here on are followed after the load (applying one the load already saw is harmless).
      const feedStart = this.follower ? await this.store.lastChangeSeq() : 0;
      // A shared store serves the first stage from an in-memory copy of the vectors: load it with the rest.
      if (this.follower) await this.store.nearest(new Float32Array(EMBEDDING_DIMS), 1);
      for (let after = (await this.reindexChunk(0)).after; after !== undefined;) {
        await pause();
        if (this.closed) return;
        after = (await this.reindexChunk(after)).after;
      }
      for (let after = 0; ;) {
        const rows = await this.store.indexRowsAfter(this.modelVersion, after, INDEX_LOAD_CHUNK);
        for (const row of rows) {
          // Held already, or enrolled or deleted since the start: that write's entry is current.
          if (this.index.has(row.id) || this.changedSince.has(row.id)) continue;
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
      this.changedSince.clear();
      this.follower?.start(feedStart);
    } catch (err) {
      // A closed store (the engine stopped mid-load) or an unreadable row: searches keep reading what is missing.
      this.indexError = err instanceof Error ? err.message : String(err);
    }
  }

  /**
   * Bring the in-memory index to the rows these changes name, as they are now: held when of this model version with
   * cylinders, dropped otherwise (removed, re-enrolled by another model). A stale entry left by a race with a local
   * write is corrected by that write's own change, read next.
   */
  private async applyChanges(changes: readonly { id: number }[]): Promise<void> {
    const ids = [...new Set(changes.map((c) => c.id))];
    const rows = new Map((await this.store.indexRows(ids)).map((row) => [row.id, row]));
    let dropped = false;
    for (const id of ids) {
      const row = rows.get(id);
      const cylinders = row && row.modelVersion === this.modelVersion ? this.storedCylinders(row) : undefined;
      if (row && cylinders) this.index.put(id, row.mobile, cylinders);
      else {
        dropped ||= this.index.has(id);
        this.index.delete(id);
      }
    }
    // No decrypted copy outlives its enrollment.
    if (dropped) this.cache.clear();
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

  async enroll(mobileE164: string, image: DecodedImage, context: EnrollContext): Promise<EnrollOutcome> {
    const features = await this.extract(image);
    return this.enrollFeatures(mobileE164, features, context.audit ? { audit: context.audit } : {});
  }

  /**
   * Enroll already extracted features (the image path above, imports and benchmarks). `skipDuplicateCheck` is for
   * bulk loads of galleries known to be distinct, where a 1:N search per row would dominate the load time; `audit`
   * gives the request's audit row, committed with the enrollment.
   */
  async enrollFeatures(
    mobileE164: string,
    features: FingerprintFeatures,
    options: { skipDuplicateCheck?: boolean; audit?: EnrollContext['audit'] } = {},
  ): Promise<EnrollOutcome> {
    refuseNonPrint(features);
    const settings = readFingerprintSettings(this.settings);
    checkQuality(features, settings);
    const { write, cylinders } = this.prepare(mobileE164, features);
    // De-duplication sees every enrollment committed before this one, on any replica.
    await this.follower?.catchUp();
    // One duplicate check and write at a time: two prints of one finger enrolled at once must see each other.
    return this.enrolling.run(async () => {
      const duplicate = options.skipDuplicateCheck
        ? undefined
        : await this.findDuplicate(mobileE164, features, settings);
      if (duplicate && settings.dedup === 'reject') {
        throw new CoreError('CONFLICT', 'This finger is already enrolled under another mobile number.', {
          extra: { duplicate_of: maskMobile(duplicate.mobile), duplicate_score: duplicate.score },
        });
      }
      const outcome = (replaced: boolean): EnrollOutcome => ({
        quality_score: write.quality,
        ...likenessField(features),
        minutiae_count: write.minutiaeCount,
        model_version: this.modelVersion,
        replaced,
        ...(duplicate
          ? { duplicate_of: maskMobile(duplicate.mobile), duplicate_score: duplicate.score }
          : {}),
      });
      const { audit } = options;
      const saved = await this.store.save(write, audit ? { audit: (s) => audit(outcome(s.replaced)) } : {});
      this.held(saved.id, mobileE164, cylinders);
      return outcome(saved.replaced);
    });
  }

  /**
   * Enroll a gallery known to be distinct (benchmarks, imports) in one store transaction: the quality policy applies,
   * the duplicate check does not.
   */
  async enrollMany(entries: readonly { mobile: string; features: FingerprintFeatures }[]): Promise<void> {
    const settings = readFingerprintSettings(this.settings);
    for (const entry of entries) checkQuality(entry.features, settings);
    const prepared = entries.map((entry) => this.prepare(entry.mobile, entry.features));
    const saved = await this.store.saveMany(prepared.map((p) => p.write));
    saved.forEach(({ id }, i) => {
      this.held(id, prepared[i]!.write.mobile, prepared[i]!.cylinders);
    });
  }

  /** The sealed template and index material of an enrollment. */
  private prepare(
    mobile: string,
    features: FingerprintFeatures,
  ): { write: EnrollmentWrite; cylinders: Cylinders } {
    const cylinders = computeCylinders(features);
    const write: EnrollmentWrite = {
      mobile,
      template: sealTemplate(encodeTemplate({ modelVersion: this.modelVersion, features }), this.key, mobile),
      modelVersion: this.modelVersion,
      embeddingVersion: EMBEDDING_VERSION,
      quality: Math.round(features.quality),
      minutiaeCount: features.minutiae.length,
      embedding: computeEmbedding(features),
      cylinders: sealCylinders(cylinders, this.key, mobile),
    };
    return { write, cylinders };
  }

  /** Hold a just-written enrollment in the in-memory index (and keep a loading index from overwriting it). */
  private held(id: number, mobile: string, cylinders: Cylinders): void {
    if (!this.index.loaded) this.changedSince.add(id);
    this.index.put(id, mobile, cylinders);
  }

  async verify(mobileE164: string, image: DecodedImage): Promise<StepResult> {
    const row = await this.store.get(mobileE164);
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
  async search(image: DecodedImage, k = 5): Promise<SearchOutcome> {
    return this.searchFeatures(await this.extract(image), k);
  }

  /** 1:N identification from features. */
  async searchFeatures(probe: FingerprintFeatures, k = 5): Promise<SearchOutcome> {
    const settings = readFingerprintSettings(this.settings);
    await this.follower?.catchUp();
    const candidates = await searchGallery(
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
    return { candidates, threshold: this.threshold(), gallery_size: await this.store.count() };
  }

  /** The enrollment ids the first search stage hands to the cylinders for these features (benchmarks). */
  async firstStageCandidates(probe: FingerprintFeatures): Promise<number[]> {
    const settings = readFingerprintSettings(this.settings);
    return (await firstStage(this.store, probe, computeCylinders(probe), settings, this.index)).ids;
  }

  /** Estimated bytes of the in-memory search index (benchmarks). */
  indexBytes(): number {
    return this.index.bytes();
  }

  /** Enrollment metadata of a number, or undefined. */
  async enrollment(mobileE164: string): Promise<EnrollmentInfo | undefined> {
    const row = await this.store.get(mobileE164);
    return row && this.info(row);
  }

  /** Delete a number's template and index material; false when it was not enrolled. */
  async deleteEnrollment(mobileE164: string): Promise<boolean> {
    const id = await this.store.remove(mobileE164);
    if (id === undefined) return false;
    if (!this.index.loaded) this.changedSince.add(id);
    this.index.delete(id);
    this.cache.clear();
    return true;
  }

  /** Enrollments made by another model version, which must be re-enrolled. */
  async reenrollmentReport(): Promise<EnrollmentInfo[]> {
    return (await this.store.listOutdated(this.modelVersion)).map((row) => this.info(row));
  }

  /** Quality and minutiae of an image without enrolling it (the console's capture preview). */
  async preview(image: DecodedImage): Promise<FingerprintPreview> {
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
  calibration(): Calibration {
    const { turn } = readFingerprintSettings(this.settings);
    const table = calibrationFor(turn);
    return {
      source: `Impostor scores of ${table.impostorCount} FVC 2002/2004 pairs, model ${table.modelVersion}, turn ${turn}`,
      points: ONE_IN_N_CHOICES.map((oneInN) => ({
        oneInN,
        threshold: scoreAtFmr(1 / oneInN, turn),
      })),
    };
  }

  async health(): Promise<EngineHealth> {
    return {
      model_version: this.modelVersion,
      embedding_version: EMBEDDING_VERSION,
      enrollments: await this.store.count(),
      indexed_in_memory: this.index.size,
      search_index: this.index.loaded ? 'ready' : this.indexError ? 'degraded' : 'loading',
      ...(this.indexError ? { search_index_error: this.indexError } : {}),
      ...(this.follower
        ? {
            change_feed_seq: this.follower.position,
            ...(this.follower.error ? { change_feed_error: this.follower.error } : {}),
          }
        : {}),
      ...this.pool.health(),
    };
  }

  /** Stop loading the search index and the worker threads. */
  close(): Promise<void> {
    this.closed = true;
    this.follower?.stop();
    return this.pool.close();
  }

  private async findDuplicate(
    mobile: string,
    features: FingerprintFeatures,
    settings: Pick<
      FingerprintSettings,
      'dedupOneInN' | 'candidates' | 'hashCandidates' | 'starCandidates' | 'shortlist' | 'turn'
    >,
  ): Promise<SearchCandidate | undefined> {
    const [best] = await searchGallery(
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

/** Runs tasks one after another, in the order given. */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Refuse to enroll a print below the quality floor or with too few minutiae (422 with the figures). */
function checkQuality(features: FingerprintFeatures, settings: FingerprintSettings): void {
  const quality = Math.round(features.quality);
  if (quality >= settings.qualityFloor && features.minutiae.length >= settings.minMinutiae) return;
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

function rejected(score: number, reason: string, message: string): StepResult {
  return { status: 'REJECTED', score, message, reason };
}
