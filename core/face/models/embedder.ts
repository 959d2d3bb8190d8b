import { toChw, type TensorLayout } from '../pixels/tensor.js';
import type { Raster } from '../types.js';
import { openModel, type OpenModelOptions } from './session.js';

/** fr_feature's aligned crop side. */
export const EMBED_SIZE = 112;

/** Embedding input layout (measured on colour pairs, see docs in the engine config). */
export const EMBED_LAYOUT: TensorLayout = { order: 'rgb', mean: 127.5, std: 128 };

/** The embedding runner: a raw (not normalised) 512-d vector per aligned 112x112 RGB crop. */
export interface EmbedRunner {
  run(aligned: Raster): Promise<Float32Array>;
  dispose(): Promise<void>;
}

/** Load fr_feature. */
export async function loadEmbedder(
  options: OpenModelOptions = {},
  layout: TensorLayout = EMBED_LAYOUT,
): Promise<EmbedRunner> {
  const model = await openModel('fr_feature', options);
  return {
    async run(aligned) {
      if (aligned.width !== EMBED_SIZE || aligned.height !== EMBED_SIZE || aligned.channels !== 3) {
        throw new Error('fr_feature expects a 112x112 RGB raster.');
      }
      const out = (await model.infer(toChw(aligned, layout), [1, 3, EMBED_SIZE, EMBED_SIZE])).output;
      if (out?.length !== 512) throw new Error('fr_feature returned an unexpected output.');
      return Float32Array.from(out);
    },
    dispose: () => model.dispose(),
  };
}
