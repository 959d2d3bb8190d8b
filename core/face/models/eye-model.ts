import { softmax } from '../math/softmax.js';
import { toChw } from '../pixels/tensor.js';
import type { Raster } from '../types.js';
import { openModel, type OpenModelOptions } from './session.js';

/** fr_eye's input side (a square grey crop around one eye). */
export const EYE_SIZE = 24;

/** The eye-state runner: class probabilities of one 24x24 grey eye crop. */
export interface EyeRunner {
  run(gray: Raster): Promise<number[]>;
  dispose(): Promise<void>;
}

/** Load fr_eye; input scaled by 1/255 as the package does. */
export async function loadEyeModel(options: OpenModelOptions = {}): Promise<EyeRunner> {
  const model = await openModel('fr_eye', options);
  return {
    async run(gray) {
      if (gray.width !== EYE_SIZE || gray.height !== EYE_SIZE || gray.channels !== 1) {
        throw new Error('fr_eye expects a 24x24 grey raster.');
      }
      const out = (
        await model.infer(toChw(gray, { order: 'rgb', mean: 0, std: 255 }), [1, 1, EYE_SIZE, EYE_SIZE])
      ).output;
      if (out?.length !== 2) throw new Error('fr_eye returned an unexpected output.');
      return softmax(out);
    },
    dispose: () => model.dispose(),
  };
}
