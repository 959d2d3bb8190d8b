import { toChw, type TensorLayout } from '../pixels/tensor.js';
import type { Raster } from '../types.js';
import { openModel, type OpenModelOptions } from './session.js';

/** fr_detect's input size (width x height). */
export const DETECTOR_SIZE = { width: 320, height: 240 } as const;

/** The detector was trained on OpenCV (BGR) frames normalised as (v - 127) / 128, as the package feeds it. */
export const DETECTOR_LAYOUT: TensorLayout = { order: 'bgr', mean: 127, std: 128 };

/** Raw detector outputs: (background, face) probabilities and normalised corner boxes per prior. */
export interface DetectorOutput {
  scores: Float32Array;
  boxes: Float32Array;
}

/** The face detector runner. */
export interface DetectorRunner {
  run(input: Raster): Promise<DetectorOutput>;
  dispose(): Promise<void>;
}

/** Load fr_detect (fails fast on a wrong file or shape). `run` takes a 320x240 RGB raster. */
export async function loadDetector(options: OpenModelOptions = {}): Promise<DetectorRunner> {
  const model = await openModel('fr_detect', options);
  return {
    async run(input) {
      if (
        input.width !== DETECTOR_SIZE.width ||
        input.height !== DETECTOR_SIZE.height ||
        input.channels !== 3
      ) {
        throw new Error('fr_detect expects a 320x240 RGB raster.');
      }
      const out = await model.infer(toChw(input, DETECTOR_LAYOUT), [
        1,
        3,
        DETECTOR_SIZE.height,
        DETECTOR_SIZE.width,
      ]);
      const scores = out.scores;
      const boxes = out.boxes;
      if (!scores || !boxes) throw new Error('fr_detect returned no scores or boxes.');
      return { scores, boxes };
    },
    dispose: () => model.dispose(),
  };
}
