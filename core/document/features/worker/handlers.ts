/**
 * Worker side of the document engine: the feature checks (ORB marks, PDF417) and the MRZ reader, whose recognition
 * model loads inside the worker, so no document image work runs on the server's event loop.
 */
import ort from 'onnxruntime-node';
import type { DecodedImage } from '../../../imaging/decode.js';
import type { HandlerGroup, TaskContext } from '../../../workers/handler-types.js';
import { guardOnnxRuntime } from '../../../workers/native-section.js';
import { disposeMrzReader, readMrz } from '../../mrz/index.js';
import { runFeatureTask, type FeatureTask, type FeatureTaskResults } from './tasks.js';

/** What a document worker does at start. */
export interface DocumentWorkerInit {
  /** Load the MRZ recognition model now rather than on the first read. */
  preloadMrz?: boolean;
}

/** An image as sent to the MRZ reader (a copy, transferred). */
export interface MrzImage {
  format: DecodedImage['format'];
  width: number;
  height: number;
  rgb: Uint8Array;
  dpi?: number;
}

function task<K extends FeatureTask['kind']>(task: Extract<FeatureTask, { kind: K }>): FeatureTaskResults[K] {
  return runFeatureTask(task) as FeatureTaskResults[K];
}

/** The document task kinds. */
export const documentHandlers = {
  'document.mark_features': (t: Extract<FeatureTask, { kind: 'mark_features' }>) => task(t),
  'document.find_marks': (t: Extract<FeatureTask, { kind: 'find_marks' }>) => task(t),
  'document.pdf417': (t: Extract<FeatureTask, { kind: 'pdf417' }>) => task(t),
  'document.mrz': (image: MrzImage, context: TaskContext) => {
    const rgb = Buffer.from(image.rgb.buffer, image.rgb.byteOffset, image.rgb.byteLength);
    // A read whose card is decided or whose request went away stops at its next recogniser call; a call made while
    // no other pool job waits or runs may use a second core.
    return readMrz(
      { ...image, rgb },
      { shouldStop: () => context.cancelled(), spareCore: () => context.alone() },
    );
  },
};

/** The document handler group. */
export const documentGroup: HandlerGroup<typeof documentHandlers> = {
  handlers: documentHandlers,
  async init(data) {
    guardOnnxRuntime(ort);
    if ((data as DocumentWorkerInit | undefined)?.preloadMrz) {
      // A blank image loads the recognizer and finds no zone.
      await readMrz({ format: 'png', width: 64, height: 64, rgb: Buffer.alloc(64 * 64 * 3, 255) });
    }
  },
  async dispose() {
    await disposeMrzReader();
  },
};
