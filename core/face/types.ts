export type { DetectedFace, FaceBox, Point } from '../contracts/face-engine.js';

/** Interleaved 8-bit pixels with their size (RGB when `channels` is 3). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}
