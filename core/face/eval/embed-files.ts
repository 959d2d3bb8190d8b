import fs from 'node:fs';
import { decodeImage } from '../../imaging/decode.js';
import { DEFAULT_FACE_CONFIG, type FaceEngineConfig } from '../config.js';
import type { FaceModels } from '../models/load-all.js';
import { alignFace } from '../pipeline/align.js';
import { detectFaces } from '../pipeline/detect-faces.js';
import { embedAligned } from '../pipeline/embed.js';
import type { DetectedFace, Raster } from '../types.js';

/** Embeddings of evaluation images (undefined when no face was found) and the time spent per image. */
export interface EmbeddedSet {
  embeddings: Map<string, Float32Array | undefined>;
  msPerImage: number;
  failures: number;
}

/** The face nearest the image centre: evaluation sets (LFW) centre the labelled person. */
function centralFace(faces: readonly DetectedFace[], image: Raster): DetectedFace | undefined {
  const cx = image.width / 2;
  const cy = image.height / 2;
  let best: DetectedFace | undefined;
  let bestD = Infinity;
  for (const f of faces) {
    const d = Math.hypot(f.box.x + f.box.width / 2 - cx, f.box.y + f.box.height / 2 - cy);
    if (d < bestD) {
      best = f;
      bestD = d;
    }
  }
  return best;
}

/** Detect, align and embed each file with the engine's own pipeline; a retry at a lower detector score is allowed. */
export async function embedFiles(
  models: FaceModels,
  files: readonly string[],
  config: FaceEngineConfig = DEFAULT_FACE_CONFIG,
  onProgress?: (done: number) => void,
): Promise<EmbeddedSet> {
  const embeddings = new Map<string, Float32Array | undefined>();
  let failures = 0;
  const start = performance.now();
  let done = 0;
  for (const file of files) {
    // A file listed in pairs.txt but absent (or undecodable) counts as a failure: its pairs score the worst.
    const decoded = fs.existsSync(file)
      ? await decodeImage(fs.readFileSync(file), { field: 'image' }).catch(() => undefined)
      : undefined;
    if (!decoded) {
      embeddings.set(file, undefined);
      failures++;
      continue;
    }
    const image: Raster = { data: decoded.rgb, width: decoded.width, height: decoded.height, channels: 3 };
    let faces = await detectFaces(models, image, config.detect);
    if (faces.length === 0) faces = await detectFaces(models, image, { ...config.detect, minScore: 0.3 });
    const face = centralFace(faces, image);
    const aligned = face ? await alignFace(image, face) : undefined;
    if (aligned)
      embeddings.set(file, await embedAligned(models.embedder, aligned.raster, config.flipAverage));
    else {
      embeddings.set(file, undefined);
      failures++;
    }
    if (++done % 200 === 0) onProgress?.(done);
  }
  return { embeddings, msPerImage: (performance.now() - start) / Math.max(1, files.length), failures };
}
