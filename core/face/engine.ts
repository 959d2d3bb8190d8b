import { CoreError } from '../errors.js';
import type { DecodedImage } from '../imaging/decode.js';
import { toSourceBox, toSourceLength } from '../imaging/source-geometry.js';
import type {
  CardFaces,
  CardMatch,
  FaceDetectOptions,
  FaceEngine,
  LivenessEngine,
} from '../contracts/face-engine.js';
import {
  ONE_IN_N_CHOICES,
  type Calibration,
  type EngineHealth,
  type StepResult,
} from '../contracts/step-result.js';
import { SETTINGS } from '../settings/schema.js';
import type { Settings } from '../settings/settings.js';
import { DEFAULT_FACE_CONFIG, type FaceEngineConfig } from './config.js';
import { estimateFmr, thresholdForFmr, type FmrCalibration } from './math/calibration.js';
import { cosineSimilarity } from '../math/vectors.js';
import { disposeFaceModels, type FaceModels } from './models/load-all.js';
import { alignFace } from './pipeline/align.js';
import { detectFaces } from './pipeline/detect-faces.js';
import { embedAligned } from './pipeline/embed.js';
import { livenessScore } from './pipeline/liveness.js';
import { analyseFace, assessQuality, type QualityReport } from './pipeline/assess.js';
import { OperationGate, workersHealth } from '../workers/index.js';
import type { LivenessCalibration } from './calibration-store.js';
import type { DetectedFace, FaceBox, Raster } from './types.js';
import { compareFaces } from './pipeline/compare.js';

/** The models the engine runs (names of models/manifest.json). */
const FACE_MODELS: readonly string[] = ['fr_detect', 'fr_landmark', 'fr_feature', 'fr_liveness', 'fr_eye'];

/** Default false-match rate of the match threshold (the default of `face.thresholdOneInN`). */
export const DEFAULT_FMR = 1 / SETTINGS['face.thresholdOneInN'].default;

function raster(image: DecodedImage): Raster {
  return { data: image.rgb, width: image.width, height: image.height, channels: 3 };
}

/** The settings with the inter-eye floors in decoded pixels: they are stated in the pixels of the upload. */
function floorsFor(config: FaceEngineConfig, selfie: DecodedImage, card: DecodedImage): FaceEngineConfig {
  const s = selfie.scale ?? 1;
  const c = card.scale ?? 1;
  if (s === 1 && c === 1) return config;
  const q = config.quality;
  return {
    ...config,
    quality: { ...q, minInterEyeSelfie: q.minInterEyeSelfie * s, minInterEyeCard: q.minInterEyeCard * c },
  };
}

/** A face box of the decoded pixels in the upload's pixels (null stays null). */
function sourceBox<B extends FaceBox | null | undefined>(box: B, image: DecodedImage): B {
  return box ? toSourceBox(box, image) : box;
}

/** Options of one face operation. */
export interface FaceCallOptions {
  /** Cancels the operation: dropped while it waits, and its model calls still queued are dropped. */
  signal?: AbortSignal;
}

/**
 * The face engine: detection, landmarks, alignment, embedding, liveness and quality over models loaded once per
 * face worker and shared by every request; every call is admitted by one gate (503 when it could not start in
 * time) and its model calls run on the face lane of the worker pool.
 */
export class FaceEngineImpl implements FaceEngine, LivenessEngine {
  readonly modelNames: readonly string[] = FACE_MODELS;
  readonly #gate: OperationGate;

  constructor(
    private readonly models: FaceModels,
    private readonly fmrCalibration: FmrCalibration,
    private readonly livenessCalibration: LivenessCalibration,
    private readonly config: FaceEngineConfig = DEFAULT_FACE_CONFIG,
    private readonly settings?: Settings,
  ) {
    this.#gate = new OperationGate(
      // Face operations run their image work on this thread between model calls: they count as work in progress.
      { ...config.queue, concurrency: models.inference.size, label: 'face engine', countsAsWork: true },
      () => models.inference.unavailable(),
    );
  }

  /** Faces of an image, best first, boxes and landmarks in its pixels (upright, or under `options.rotation`). */
  detect(image: DecodedImage, options: FaceDetectOptions & FaceCallOptions = {}): Promise<DetectedFace[]> {
    const rotations = [options.rotation ?? 0] as const;
    return this.#gate.run(
      'detect',
      () => detectFaces(this.models, raster(image), { ...this.config.detect, rotations }),
      options.signal,
    );
  }

  /** Faces of an ID-card image, trying quarter-turn rotations until a face looks upright. */
  detectOnCard(image: DecodedImage, options: FaceCallOptions = {}): Promise<DetectedFace[]> {
    return this.#gate.run(
      'detect_card',
      () =>
        detectFaces(this.models, raster(image), {
          ...this.config.detect,
          rotations: this.config.cardRotations,
        }),
      options.signal,
    );
  }

  /** L2-normalised 512-d embedding of one detected face of `image`. */
  embed(image: DecodedImage, face: DetectedFace, options: FaceCallOptions = {}): Promise<Float32Array> {
    return this.#gate.run(
      'embed',
      async () => {
        const aligned = await alignFace(raster(image), face);
        if (!aligned) throw new CoreError('UNPROCESSABLE', 'The face lies outside the image.');
        return embedAligned(this.models.embedder, aligned.raster, this.config.flipAverage);
      },
      options.signal,
    );
  }

  /** Cosine similarity of two embeddings, in [-1, 1]. */
  similarity(a: Float32Array, b: Float32Array): number {
    return cosineSimilarity(a, b);
  }

  /** The default threshold: the operator's "1 in N" setting, else the similarity at FMR 1e-3. */
  defaultThreshold(): number {
    const fmr = this.settings ? 1 / this.settings.get('face.thresholdOneInN') : DEFAULT_FMR;
    return thresholdForFmr(this.fmrCalibration, fmr);
  }

  /** Estimated false-match rate of a similarity score. */
  estimatedFmr(score: number): number {
    return estimateFmr(this.fmrCalibration, score);
  }

  /** The faces of an ID-card image (quarter turns tried) and its main portrait, as `match` picks it. */
  analyseCard(image: DecodedImage, options: FaceCallOptions = {}): Promise<CardFaces> {
    return this.#gate.run(
      'analyse_card',
      async () => {
        const { faces, face } = await analyseFace(
          this.models,
          floorsFor(this.config, image, image),
          raster(image),
          'card',
        );
        return { image, faces, portrait: face ?? null };
      },
      options.signal,
    );
  }

  /** Selfie vs ID-card portrait: SUCCESS, or REJECTED with reason no_match, no_face_detected or poor_quality. */
  async match(
    selfie: DecodedImage,
    idCard: DecodedImage,
    options: { threshold?: number } & FaceCallOptions = {},
  ): Promise<StepResult> {
    return (await this.matchCard(selfie, idCard, options)).result;
  }

  /** `match`, also answering the card's faces, so the id_card step of the same request need not detect again. */
  async matchCard(
    selfie: DecodedImage,
    idCard: DecodedImage,
    options: { threshold?: number } & FaceCallOptions = {},
  ): Promise<CardMatch> {
    const { min, max } = this.config.thresholdBounds;
    const threshold = options.threshold ?? this.defaultThreshold();
    if (!Number.isFinite(threshold) || threshold < min || threshold > max) {
      throw new CoreError('FIELD_INVALID', `threshold must be between ${min} and ${max}.`, {
        field: 'threshold',
      });
    }
    const match = await this.#gate.run(
      'match',
      async () => {
        const { result, card } = await compareFaces(
          this.models,
          floorsFor(this.config, selfie, idCard),
          raster(selfie),
          raster(idCard),
          {
            threshold,
            estimateFmr: (s) => this.estimatedFmr(s),
          },
        );
        return { result, card: { image: idCard, faces: card.faces, portrait: card.portrait ?? null } };
      },
      options.signal,
    );
    // The card analysis stays in the decoded image's coordinates (the id_card step reads that image); the answer's
    // boxes are in the upload's.
    const { result } = match;
    const faces = result.extra?.faces as { selfie: FaceBox | null; id_card: FaceBox | null } | undefined;
    if (faces) {
      result.extra = {
        ...result.extra,
        faces: { selfie: sourceBox(faces.selfie, selfie), id_card: sourceBox(faces.id_card, idCard) },
      };
    }
    return match;
  }

  /** Passive liveness of the main face of one image; score in [0, 1], 1 = bona fide. */
  liveness(image: DecodedImage, options: FaceCallOptions = {}): Promise<StepResult> {
    return this.#gate.run(
      'liveness',
      async () => {
        const threshold = this.livenessCalibration.threshold;
        const { score, face } = await livenessScore(this.models, this.config, raster(image));
        // Without a face there is nothing to call live: the score of the image's centre means nothing.
        if (!face) {
          return {
            status: 'REJECTED',
            score: 0,
            reason: 'no_face_detected',
            message: 'No face was found in the image.',
            extra: { threshold, face: null, face_detected: false },
          } satisfies StepResult;
        }
        const live = score >= threshold;
        const result: StepResult = {
          status: live ? 'SUCCESS' : 'REJECTED',
          score: round4(score),
          message: live ? 'The face appears live.' : 'The image looks like a presentation attack.',
          extra: { threshold, face: sourceBox(face, image) ?? null, face_detected: face !== undefined },
        };
        if (!live) result.reason = 'presentation_attack';
        return result;
      },
      options.signal,
    );
  }

  /** Quality checks of a selfie for live capture feedback. */
  async quality(image: DecodedImage, options: FaceCallOptions = {}): Promise<QualityReport> {
    const report = await this.#gate.run(
      'quality',
      () => assessQuality(this.models, floorsFor(this.config, image, image), raster(image), 'selfie'),
      options.signal,
    );
    return {
      ...report,
      face: sourceBox(report.face, image),
      checks: report.checks.map((c) =>
        c.name === 'face_size' ? { ...c, value: Math.round(toSourceLength(c.value, image) * 100) / 100 } : c,
      ),
    };
  }

  /** The committed similarity → FMR calibration as the console's "1 in N" operating points. */
  calibration(): Calibration {
    const { source, impostorCount, model } = this.fmrCalibration;
    // The source reads "<set>: <count> cross-identity pairs of <n> images"; the count is said once, formatted.
    const dataset = (source.split(':')[0] ?? '').replace(/\/[^\s]*\//g, '').trim();
    return {
      source: `Impostor scores of ${impostorCount.toLocaleString('en')} ${dataset} pairs, model ${model}`,
      points: ONE_IN_N_CHOICES.map((oneInN) => ({
        oneInN,
        threshold: thresholdForFmr(this.fmrCalibration, 1 / oneInN),
      })),
    };
  }

  /** Model and calibration facts for /api/health. */
  health(): Promise<EngineHealth> {
    return Promise.resolve({
      models: [...this.modelNames],
      loaded: true,
      threshold: round4(this.defaultThreshold()),
      livenessThreshold: this.livenessCalibration.threshold,
      calibration: this.fmrCalibration.source,
      queue: this.#gate.stats(),
      ...workersHealth([this.models.inference]),
    });
  }

  /** Stop the face workers (each releases its ONNX sessions). */
  async dispose(): Promise<void> {
    await disposeFaceModels(this.models);
  }
}

function round4(v: number): number {
  return Math.round(v * 10000) / 10000;
}
