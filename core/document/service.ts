/**
 * The document engine: the ID-card security-feature check (the id_card step of /v2/verify and /v1/verify) over
 * stored profiles and registered reference marks, plus the admin operations the console wires to its routes.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type {
  DocumentProfileRepository,
  ReferenceMarkRepository,
} from '../contracts/document-repositories.js';
import { CoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import { toSourceBox } from '../imaging/source-geometry.js';
import type {
  DocumentEngine,
  IdCardCheckOptions,
  ReferenceMarkSummary,
  StoredProfile,
} from '../contracts/document-engine.js';
import type { CardFaces } from '../contracts/face-engine.js';
import type { EngineHealth, StepResult } from '../contracts/step-result.js';
import {
  detectGhostPortrait,
  GHOST_SEARCH_LIMITS,
  type FacePort,
  type GhostSearchLimits,
} from './features/ghost-portrait/detector.js';
import { detectMrz, type MrzReader } from './features/mrz-feature.js';
import { detectPdf417 } from './features/pdf417/detector.js';
import { detectReferenceMark } from './features/reference-mark/detector.js';
import type { FeatureName, FeatureResult, Region } from './features/types.js';
import { DocumentWorkers } from './features/worker/document-workers.js';
import { workersHealth } from '../workers/health.js';
import { evaluateAnyOf } from './profiles/any-of.js';
import { decide } from './profiles/decide.js';
import {
  DEFAULT_PROFILE_NAME,
  isProfileName,
  validateProfile,
  type DocumentProfile,
} from './profiles/profile.js';

/** What the engine is built from; a missing face engine or MRZ reader makes that feature score 0 ("unavailable"). */
export interface DocumentServiceDeps {
  profiles: DocumentProfileRepository;
  marks: ReferenceMarkRepository;
  face?: FacePort;
  readMrz?: MrzReader;
  /** The document worker lane (shared with the OCR service); without it the engine starts and owns its own. */
  workers?: DocumentWorkers;
  /** Bounds of the ghost-portrait search (default `GHOST_SEARCH_LIMITS`). */
  ghostLimits?: GhostSearchLimits;
}

/** Where an MRZ was located (read valid or not): its zone holds nothing else, so no ghost portrait. */
function mrzZones(earlier: readonly FeatureResult[]): Region[] {
  return earlier.flatMap((r) => (r.feature === 'mrz' && r.region ? [r.region] : []));
}

/** Registered mark images are reduced to this longest side: larger adds time, not matches. */
const MARK_MAX_SIDE = 640;
/** A mark with fewer keypoints cannot be told apart from clutter. */
const MARK_MIN_KEYPOINTS = 40;
/** Version of the keypoint format and BRIEF pattern, recorded so a future change can re-extract from the preview. */
export const DESCRIPTOR_VERSION = 1;

/** The DocumentEngine implementation. */
export class DocumentService implements DocumentEngine {
  readonly #profiles: DocumentProfileRepository;
  readonly #marks: ReferenceMarkRepository;
  readonly #workers: DocumentWorkers;
  readonly #ownsWorkers: boolean;
  readonly #face: FacePort | undefined;
  readonly #readMrz: MrzReader | undefined;
  readonly #ghostLimits: GhostSearchLimits;

  constructor(deps: DocumentServiceDeps) {
    this.#ghostLimits = deps.ghostLimits ?? GHOST_SEARCH_LIMITS;
    this.#profiles = deps.profiles;
    this.#marks = deps.marks;
    this.#face = deps.face;
    this.#readMrz = deps.readMrz;
    this.#ownsWorkers = deps.workers === undefined;
    this.#workers = deps.workers ?? new DocumentWorkers();
  }

  /** The profile of that name (default when absent); unknown names are 400 FIELD_INVALID. */
  async profile(name?: string): Promise<StoredProfile> {
    const wanted = name === undefined || name === '' ? DEFAULT_PROFILE_NAME : name;
    const profile = isProfileName(wanted) ? await this.#profiles.get(wanted) : undefined;
    if (!profile)
      throw new CoreError('FIELD_INVALID', `Unknown document profile "${wanted.slice(0, 40)}".`, {
        field: 'profile',
      });
    return profile;
  }

  /** Run every detector the profile names, in parallel (the benchmarks time each detector this way). */
  async runFeatures(image: DecodedImage, profile: DocumentProfile): Promise<FeatureResult[]> {
    const never = new AbortController().signal;
    return Promise.all(profile.features.map((f) => this.#detect(f.feature, image, profile, never)));
  }

  async #detect(
    feature: FeatureName,
    image: DecodedImage,
    profile: DocumentProfile,
    signal: AbortSignal,
    card?: CardFaces | PromiseLike<CardFaces>,
    earlier: readonly FeatureResult[] = [],
  ): Promise<FeatureResult> {
    const unavailable = (why: string): FeatureResult => ({
      feature,
      score: 0,
      region: null,
      ms: 0,
      details: { available: false, why },
    });
    switch (feature) {
      case 'mrz':
        return this.#readMrz ? detectMrz(image, this.#readMrz, signal) : unavailable('MRZ reader not loaded');
      case 'ghost_portrait':
        return this.#face
          ? this.#ghost(
              image,
              this.#face,
              signal,
              card,
              mrzZones(earlier),
              profile.features.find((f) => f.feature === 'ghost_portrait')?.min_score,
            )
          : unavailable('face engine not loaded');
      case 'reference_mark': {
        const marks = (await this.#marks.load(profile.reference_marks)).map((m) => ({
          id: m.id,
          name: m.name,
          features: m.features,
        }));
        return detectReferenceMark(image, marks, this.#workers, signal);
      }
      case 'pdf417':
        return detectPdf417(image, this.#workers, signal);
    }
  }

  /** The ghost search over the card's faces: those the caller found on this very image, or analysed now. */
  async #ghost(
    image: DecodedImage,
    face: FacePort,
    signal: AbortSignal,
    card: CardFaces | PromiseLike<CardFaces> | undefined,
    clear: Region[],
    passScore: number | undefined,
  ): Promise<FeatureResult> {
    const started = performance.now();
    // The face step's analysis when it has one; a face step that failed leaves the search to analyse the card.
    const given = card ? await Promise.resolve(card).catch(() => undefined) : undefined;
    signal.throwIfAborted();
    const faces = given?.image === image ? given : await face.analyseCard(image);
    const result = await detectGhostPortrait(faces, face, {
      signal,
      clear,
      limits: this.#ghostLimits,
      ...(passScore !== undefined ? { passScore } : {}),
    });
    return { ...result, ms: Math.round(performance.now() - started) };
  }

  /**
   * The id_card step: the profile's features cheapest first until one passes (SUCCESS with it), or REJECTED with
   * reason feature_not_found. `card` is the face engine's analysis of this image when the request has one.
   */
  async checkIdCard(image: DecodedImage, options: IdCardCheckOptions = {}): Promise<StepResult> {
    const profile = await this.profile(options.profile);
    const { results, skipped } = await evaluateAnyOf(
      profile,
      (feature, signal, earlier) => this.#detect(feature, image, profile, signal, options.card, earlier),
      options.signal ? { signal: options.signal } : {},
    );
    // Regions in the pixels of the upload, whatever size it was decoded at.
    const located = results.map((f) => (f.region ? { ...f, region: toSourceBox(f.region, image) } : f));
    return decide(profile, located, skipped);
  }

  /** Every stored profile. */
  listProfiles(): Promise<StoredProfile[]> {
    return this.#profiles.list();
  }

  /** Validate and store a profile (insert or replace); 400 on invalid input. */
  async saveProfile(input: unknown): Promise<StoredProfile> {
    return this.#profiles.save(validateProfile(input));
  }

  /** Delete a profile; 404 when unknown, 409 for the default profile (requests without `profile` need it). */
  async deleteProfile(name: string): Promise<void> {
    if (name === DEFAULT_PROFILE_NAME)
      throw new CoreError('CONFLICT', 'The default profile can be edited but not deleted.');
    if (!(await this.#profiles.delete(name)))
      throw new CoreError('NOT_FOUND', `No document profile named "${name.slice(0, 40)}".`);
  }

  /** Every registered reference mark (without features). */
  listReferenceMarks(): Promise<ReferenceMarkSummary[]> {
    return this.#marks.list();
  }

  /** PNG preview of a registered mark, for the console. */
  async referenceMarkPreview(id: string): Promise<Buffer> {
    const png = await this.#marks.preview(id);
    if (!png) throw new CoreError('NOT_FOUND', 'No reference mark with that id.');
    return png;
  }

  /**
   * Register a printed mark from an image file: decoded, reduced to at most 640 px, keypoints extracted (worker)
   * and stored with a PNG preview. 400 bad name, 409 duplicate name, 415 not an image, 422 too few keypoints.
   */
  async addReferenceMark(name: string, imageBytes: Buffer): Promise<ReferenceMarkSummary> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (trimmed.length === 0 || trimmed.length > 80) {
      throw new CoreError('FIELD_INVALID', 'name must be 1-80 characters.', { field: 'name' });
    }
    const taken = (): CoreError =>
      new CoreError('CONFLICT', `A reference mark named "${trimmed}" exists.`, { field: 'name' });
    if (await this.#marks.hasName(trimmed)) throw taken();
    const decoded = await decodeImage(imageBytes, { field: 'image' });
    if (Math.min(decoded.width, decoded.height) < 48) {
      throw new CoreError('UNPROCESSABLE', 'The mark image must be at least 48 pixels on each side.', {
        field: 'image',
      });
    }
    const { data, info } = await sharp(decoded.rgb, {
      raw: { width: decoded.width, height: decoded.height, channels: 3 },
    })
      .resize(MARK_MAX_SIDE, MARK_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const preview = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .png()
      .toBuffer();
    const { result: features } = await this.#workers.run({
      kind: 'mark_features',
      image: { rgb: data, width: info.width, height: info.height },
    });
    if (features.count < MARK_MIN_KEYPOINTS) {
      throw new CoreError(
        'QUALITY_TOO_LOW',
        'The mark image has too little detail to be recognised; use a sharper, larger image.',
        {
          field: 'image',
          extra: { keypoints: features.count, minimum: MARK_MIN_KEYPOINTS },
        },
      );
    }
    const added = await this.#marks.add({
      id: `mark_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      name: trimmed,
      preview,
      features,
      descriptorVersion: DESCRIPTOR_VERSION,
      createdAt: new Date().toISOString(),
    });
    // Registered under the same name meanwhile (a second console tab, another replica).
    if (!added) throw taken();
    return added;
  }

  /** Delete a registered mark; 404 when unknown. */
  async deleteReferenceMark(id: string): Promise<void> {
    if (!(await this.#marks.delete(id))) throw new CoreError('NOT_FOUND', 'No reference mark with that id.');
  }

  /** What the health route reports. */
  async health(): Promise<EngineHealth> {
    return {
      features: {
        mrz: this.#readMrz !== undefined,
        ghost_portrait: this.#face !== undefined,
        reference_mark: true,
        pdf417: true,
      },
      profiles: (await this.#profiles.list()).length,
      reference_marks: (await this.#marks.list()).length,
      ...workersHealth([this.#workers]),
    };
  }

  /** Start the document workers and load their modules now, so the first card does not pay for it. */
  async warmUp(): Promise<void> {
    await this.#workers.start();
  }

  /** Stop the document workers, when the engine started them. */
  async dispose(): Promise<void> {
    if (this.#ownsWorkers) await this.#workers.close();
  }
}
