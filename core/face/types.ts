/** An axis-aligned rectangle in image pixels (top-left corner, size). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point `[x, y]` in image pixels. */
export type Point = [number, number];

/** One detected face: box, detector confidence and landmarks, all in the pixels of the image given to `detect`. */
export interface DetectedFace {
  box: FaceBox;
  /** Detector confidence in [0, 1]. */
  score: number;
  /** Left eye, right eye, nose tip, left mouth corner, right mouth corner (image left/right), from the 68-point model. */
  landmarks5: Point[];
  /** The 68 points of the landmark model (iBUG order). */
  landmarks68: Point[];
  /** Clockwise rotation (degrees) of the image under which the face was found upright. */
  rotation: 0 | 90 | 180 | 270;
}

/** Interleaved 8-bit pixels with their size (RGB when `channels` is 3). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}
