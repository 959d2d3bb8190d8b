import type { FaceEngineConfig } from '../config.js';
import { livenessRect } from '../geometry/face-geometry.js';
import { LIVENESS_SIZE } from '../models/liveness-model.js';
import type { FaceModels } from '../models/load-all.js';
import type { FaceBox, Raster } from '../types.js';
import { mainFace } from './assess.js';
import { detectFaces } from './detect-faces.js';
import { cropResize, padCopyCropResize } from './sharp-ops.js';

/** The liveness input crop: a square of the image, and the border padding added around the image first. */
export interface LivenessCrop {
  rect: FaceBox;
  pad: number;
}

/**
 * Where to read the liveness input. With room around the face: the package's crop (box x `scale`, kept inside the
 * image). When the image is little more than the face (a tight crop: the context square would not fit), the model
 * would see no background at all; we then take the centred square and extend it by `tightPad` of its side by
 * repeating the border (measured on NUAA: AUC 0.95 against 0.90 for the bare crop).
 */
export function livenessCrop(
  face: FaceBox | undefined,
  width: number,
  height: number,
  scale: number,
  tightPad: number,
): LivenessCrop {
  const side0 = face ? Math.max(face.width, face.height) * scale : Infinity;
  if (face && side0 <= Math.min(width, height))
    return { rect: livenessRect(face, width, height, scale), pad: 0 };
  const side = Math.min(width, height);
  const pad = Math.round(side * tightPad);
  const x = Math.floor((width - side) / 2);
  const y = Math.floor((height - side) / 2);
  return { rect: { x, y, width: side + 2 * pad, height: side + 2 * pad }, pad };
}

function logit(p: number): number {
  const q = Math.min(1 - 1e-7, Math.max(1e-7, p));
  return Math.log(q / (1 - q));
}

/**
 * Live-class probability of the main face of an image, with the face box when one was found. Tight crops are scored
 * on two views, border-padded and bare, averaged in logit space: the two err on different images (NUAA half-split:
 * ACER 11.2% for the pair against 12.8% and 18.0% alone).
 */
export async function livenessScore(
  models: FaceModels,
  config: FaceEngineConfig,
  image: Raster,
): Promise<{ score: number; face?: FaceBox }> {
  const face = mainFace(await detectFaces(models, image, config.detect));
  const { rect, pad } = livenessCrop(
    face?.box,
    image.width,
    image.height,
    config.livenessCropScale,
    config.livenessTightPad,
  );
  const live = async (crop: Raster): Promise<number> =>
    (await models.liveness.run(crop))[config.livenessLiveClass] ?? 0;
  let score = await live(await padCopyCropResize(image, rect, pad, LIVENESS_SIZE));
  if (pad > 0) {
    const bare = { x: rect.x, y: rect.y, width: rect.width - 2 * pad, height: rect.height - 2 * pad };
    const second = await live(await cropResize(image, bare, LIVENESS_SIZE, LIVENESS_SIZE));
    score = 1 / (1 + Math.exp(-(logit(score) + logit(second)) / 2));
  }
  return face ? { score, face: face.box } : { score };
}
