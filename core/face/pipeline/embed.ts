import { l2Normalize } from '../../math/vectors.js';
import type { EmbedRunner } from '../models/embedder.js';
import { flipHorizontal } from '../pixels/warp-affine.js';
import type { Raster } from '../types.js';

/**
 * L2-normalised embedding of an aligned face; with `flip` the embeddings of the crop and its mirror image are summed
 * first (a cheap test-time augmentation that evens out pose and lighting asymmetry).
 */
export async function embedAligned(
  embedder: EmbedRunner,
  aligned: Raster,
  flip: boolean,
): Promise<Float32Array> {
  if (!flip) return l2Normalize(await embedder.run(aligned));
  // Both runs at once: onnxruntime runs them on its own threads, so a request uses both cores when they are free.
  const [v, m] = await Promise.all([embedder.run(aligned), embedder.run(flipHorizontal(aligned))]);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! + m[i]!;
  return l2Normalize(v);
}
