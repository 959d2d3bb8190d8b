import { softmax } from '../math/softmax.js';
import { toChw, type TensorLayout } from '../pixels/tensor.js';
import type { Raster } from '../types.js';
import { openModel, type OpenModelOptions } from './session.js';

/** fr_liveness's input side. */
export const LIVENESS_SIZE = 128;

/** Raw 0-255 values in BGR order: with RGB the model is near chance on NUAA (measured). */
export const LIVENESS_LAYOUT: TensorLayout = { order: 'bgr', mean: 0, std: 1 };

/** The liveness runner: class probabilities of one 128x128 RGB crop. */
export interface LivenessRunner {
  run(crop: Raster): Promise<number[]>;
  dispose(): Promise<void>;
}

/** Load fr_liveness. */
export async function loadLivenessModel(
  options: OpenModelOptions = {},
  layout: TensorLayout = LIVENESS_LAYOUT,
): Promise<LivenessRunner> {
  const model = await openModel('fr_liveness', options);
  return {
    async run(crop) {
      if (crop.width !== LIVENESS_SIZE || crop.height !== LIVENESS_SIZE || crop.channels !== 3) {
        throw new Error('fr_liveness expects a 128x128 RGB raster.');
      }
      const out = (await model.infer(toChw(crop, layout), [1, 3, LIVENESS_SIZE, LIVENESS_SIZE])).output;
      if (out?.length !== 3) throw new Error('fr_liveness returned an unexpected output.');
      return softmax(out);
    },
    dispose: () => model.dispose(),
  };
}
