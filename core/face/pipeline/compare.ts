import type { StepResult } from '../../contracts/step-result.js';
import type { FaceEngineConfig } from '../config.js';
import { cosineSimilarity } from '../../math/vectors.js';
import type { FaceModels } from '../models/load-all.js';
import type { FaceBox, Raster } from '../types.js';
import { analyseFace } from './assess.js';
import { embedAligned } from './embed.js';

/** The decision inputs of one comparison. */
export interface CompareOptions {
  threshold: number;
  estimateFmr: (score: number) => number;
}

function roundBox(box: FaceBox | null): FaceBox | null {
  return (
    box && {
      x: Math.round(box.x),
      y: Math.round(box.y),
      width: Math.round(box.width),
      height: Math.round(box.height),
    }
  );
}

/**
 * The face_match step: find and check the selfie face and the card's main portrait, embed both, compare with cosine
 * similarity against the threshold. Boxes used are returned in `extra.faces`.
 */
export async function compareFaces(
  models: FaceModels,
  config: FaceEngineConfig,
  selfie: Raster,
  card: Raster,
  options: CompareOptions,
): Promise<StepResult> {
  // The two images are independent: analyse them concurrently (sharp and onnxruntime work off the event loop).
  const [s, c] = await Promise.all([
    analyseFace(models, config, selfie, 'selfie'),
    analyseFace(models, config, card, 'card'),
  ]);
  const faces = { selfie: roundBox(s.report.face), id_card: roundBox(c.report.face) };
  const threshold = Math.round(options.threshold * 10000) / 10000;
  const base = { threshold, faces, quality: { selfie: s.report.reasons, id_card: c.report.reasons } };
  if (!s.face || !s.aligned || !c.face || !c.aligned) {
    const which = !s.face ? 'selfie' : 'ID-card image';
    return {
      status: 'REJECTED',
      score: 0,
      reason: 'no_face_detected',
      message: `No face was found in the ${which}.`,
      extra: base,
    };
  }
  if (!s.report.passed || !c.report.passed) {
    const reasons = [
      ...s.report.reasons.map((r) => `selfie: ${r}`),
      ...c.report.reasons.map((r) => `id_card: ${r}`),
    ];
    return {
      status: 'REJECTED',
      score: 0,
      reason: 'poor_quality',
      message: `The face images are not good enough to compare (${reasons.join(', ')}).`,
      extra: base,
    };
  }
  const [a, b] = await Promise.all([
    embedAligned(models.embedder, s.aligned.raster, config.flipAverage),
    embedAligned(models.embedder, c.aligned.raster, config.flipAverage),
  ]);
  const score = Math.round(cosineSimilarity(a, b) * 10000) / 10000;
  const estimatedFmr = options.estimateFmr(score);
  const matched = score >= options.threshold;
  const result: StepResult = {
    status: matched ? 'SUCCESS' : 'REJECTED',
    score,
    message: matched
      ? 'The selfie matches the ID-card portrait.'
      : 'The selfie does not match the ID-card portrait.',
    extra: { ...base, estimated_fmr: Number(estimatedFmr.toPrecision(3)) },
  };
  if (!matched) result.reason = 'no_match';
  return result;
}
