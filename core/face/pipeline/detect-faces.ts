import { decodeDetections } from '../geometry/decode-detections.js';
import { looksUpright, squareAround } from '../geometry/face-geometry.js';
import { fivePointsFrom68 } from '../geometry/landmarks.js';
import { letterbox, unletterboxBox } from '../geometry/letterbox.js';
import { unrotateBox, unrotatePoint, type Rotation } from '../geometry/rotation.js';
import { DETECTOR_SIZE, type DetectorRunner } from '../models/detector.js';
import { LANDMARK_SIZE, type LandmarkRunner } from '../models/landmarker.js';
import { rectToOutput, toGray, warpAffine } from '../pixels/warp-affine.js';
import type { DetectedFace, FaceBox, Point, Raster } from '../types.js';
import { cutChip, letterboxRaster, rotateRaster } from './sharp-ops.js';

/** Detector settings. */
export interface DetectOptions {
  /** Minimum detector probability of a face. */
  minScore: number;
  /** NMS overlap threshold. */
  iouThreshold: number;
  /** At most this many faces (best first) get landmarks. */
  maxFaces: number;
  /** Rotations tried in order until one yields an upright face (ID cards); selfies use [0]. */
  rotations: readonly Rotation[];
}

/** Default detection: the package's 0.65 confidence, NMS at 0.4, upright only. */
export const DEFAULT_DETECT_OPTIONS: DetectOptions = { minScore: 0.65, iouThreshold: 0.4, maxFaces: 8, rotations: [0] };

/** Longest side of the chip landmarks are read from: faces come down to about 130 px, so nothing aliases. */
const CHIP_SIDE = 240;

/** The detector plus landmark models. */
export interface DetectModels {
  detector: DetectorRunner;
  landmarker: LandmarkRunner;
}

async function boxesIn(models: DetectModels, image: Raster, options: DetectOptions): Promise<{ box: FaceBox; score: number }[]> {
  const lb = letterbox(image.width, image.height, DETECTOR_SIZE.width, DETECTOR_SIZE.height);
  const input = await letterboxRaster(image, lb, DETECTOR_SIZE.width, DETECTOR_SIZE.height);
  const { scores, boxes } = await models.detector.run(input);
  const found = decodeDetections(scores, boxes, {
    minScore: options.minScore,
    iouThreshold: options.iouThreshold,
    inputWidth: DETECTOR_SIZE.width,
    inputHeight: DETECTOR_SIZE.height,
  });
  return found.slice(0, options.maxFaces).map((f) => ({ box: unletterboxBox(f.box, lb), score: f.score }));
}

/** 68 landmarks of the face in `box`, read from a grey square crop of the box height. */
async function landmarksOf(models: DetectModels, image: Raster, box: FaceBox): Promise<Point[] | undefined> {
  const square = squareAround(box, 1);
  const chip = await cutChip(image, squareAround(box, 1.6), CHIP_SIDE);
  if (!chip) return undefined;
  const k = chip.scale;
  const sx = (square.x - chip.offsetX) * k;
  const sy = (square.y - chip.offsetY) * k;
  const side = square.width * k;
  const crop = toGray(warpAffine(chip.raster, rectToOutput(sx, sy, side, side, LANDMARK_SIZE, LANDMARK_SIZE), LANDMARK_SIZE, LANDMARK_SIZE));
  const out = await models.landmarker.run(crop);
  const points: Point[] = [];
  for (let i = 0; i < 68; i++) points.push([square.x + out[2 * i]! * square.width, square.y + out[2 * i + 1]! * square.height]);
  return points;
}

/** Faces of one (already rotated) image, best first, with landmarks in that image's pixels. */
async function facesUpright(models: DetectModels, image: Raster, options: DetectOptions): Promise<Omit<DetectedFace, 'rotation'>[]> {
  const faces: Omit<DetectedFace, 'rotation'>[] = [];
  for (const { box, score } of await boxesIn(models, image, options)) {
    const landmarks68 = await landmarksOf(models, image, box);
    if (!landmarks68) continue;
    faces.push({ box, score, landmarks68, landmarks5: fivePointsFrom68(landmarks68) });
  }
  return faces;
}

/**
 * Detect faces, trying each rotation of `options.rotations` until one gives a face whose landmarks look upright;
 * boxes and landmarks are returned in the pixels of the image as given.
 */
export async function detectFaces(models: DetectModels, image: Raster, options: DetectOptions): Promise<DetectedFace[]> {
  for (const rotation of options.rotations) {
    const rotated = await rotateRaster(image, rotation);
    const faces = (await facesUpright(models, rotated, options)).filter((f) => looksUpright(f.landmarks5));
    if (faces.length === 0) continue;
    const back = (p: Point): Point => unrotatePoint(p, rotation, image.width, image.height);
    return faces.map((f) => ({
      box: unrotateBox(f.box, rotation, image.width, image.height),
      score: f.score,
      landmarks5: f.landmarks5.map(back),
      landmarks68: f.landmarks68.map(back),
      rotation,
    }));
  }
  return [];
}
