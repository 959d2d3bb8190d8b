import { toChw } from '../pixels/tensor.js';
import type { Raster } from '../types.js';
import { openModel, type OpenModelOptions } from './session.js';

/** fr_landmark's input side (a square grey crop of the face box). */
export const LANDMARK_SIZE = 64;

/** The 68-point landmark runner: returns 136 numbers, (x, y) pairs as fractions of the input crop. */
export interface LandmarkRunner {
  run(gray: Raster): Promise<Float32Array>;
  dispose(): Promise<void>;
}

/** Load fr_landmark; `run` takes a 64x64 one-channel raster (scaled by 1/256 as the package does). */
export async function loadLandmarker(options: OpenModelOptions = {}): Promise<LandmarkRunner> {
  const model = await openModel('fr_landmark', options);
  return {
    async run(gray) {
      if (gray.width !== LANDMARK_SIZE || gray.height !== LANDMARK_SIZE || gray.channels !== 1) {
        throw new Error('fr_landmark expects a 64x64 grey raster.');
      }
      const input = toChw(gray, { order: 'rgb', mean: 0, std: 256 });
      const out = (await model.infer(input, [1, 1, LANDMARK_SIZE, LANDMARK_SIZE])).output;
      if (out?.length !== 136) throw new Error('fr_landmark returned an unexpected output.');
      return out;
    },
    dispose: () => model.dispose(),
  };
}
