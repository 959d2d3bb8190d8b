/**
 * Which quarter turn shows a card's faces upright. The detector finds a face upside down about as confidently as
 * upright (measured on rendered and specimen cards: 0.95-1.00 both ways), and the landmark model, given a face
 * the wrong way up, still draws an upright-looking face, so neither tells the turn. The embedder does: the raw
 * (unnormalised) embedding of a face aligned on well-placed landmarks is long, of one aligned on misplaced
 * landmarks short (feature norm as a face-quality measure). Measured on 12 rendered cards and 6 specimens under
 * the four turns: the right turn 2.4-4.4, a wrong one 1.5-2.5; the longest was a right turn on every image (a
 * portrait whose head is tilted about 45 degrees is upright enough under two turns).
 */
import type { DetectedFace, Raster } from '../types.js';
import { alignFace } from './align.js';
import type { EmbedRunner } from '../models/embedder.js';

/** The model that measures a face's alignment. */
interface EmbedModel {
  embedder: EmbedRunner;
}

/** The main face of a set: the largest box, ties broken by confidence (assess.ts's rule). */
function largest(faces: readonly DetectedFace[]): DetectedFace | undefined {
  let best: DetectedFace | undefined;
  for (const f of faces) {
    if (!best || f.box.width * f.box.height * f.score > best.box.width * best.box.height * best.score)
      best = f;
  }
  return best;
}

/** Length of the raw embedding of a face aligned on its landmarks (0 when it cannot be aligned). */
async function embeddingLength(models: EmbedModel, image: Raster, face: DetectedFace): Promise<number> {
  const aligned = await alignFace(image, face);
  if (!aligned) return 0;
  const v = await models.embedder.run(aligned.raster);
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

/** Of several turns' faces, those whose main face has the longest raw embedding (none when no turn has a face). */
export async function longestEmbedding(
  models: EmbedModel,
  image: Raster,
  turns: readonly DetectedFace[][],
): Promise<DetectedFace[]> {
  let best: { faces: DetectedFace[]; length: number } | undefined;
  for (const faces of turns) {
    const main = largest(faces);
    if (!main) continue;
    const length = await embeddingLength(models, image, main);
    if (!best || length > best.length) best = { faces, length };
  }
  return best?.faces ?? [];
}
