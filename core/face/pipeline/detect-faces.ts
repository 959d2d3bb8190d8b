import type { Affine } from '../geometry/similarity-transform.js';
import { decodeDetections } from '../geometry/decode-detections.js';
import { looksUpright, squareAround } from '../geometry/face-geometry.js';
import { fivePointsFrom68 } from '../geometry/landmarks.js';
import { letterbox, unletterboxBox } from '../geometry/letterbox.js';
import { unrotateBox, unrotateVector, type Rotation } from '../geometry/rotation.js';
import { DETECTOR_SIZE, type DetectorRunner } from '../models/detector.js';
import { LANDMARK_SIZE, type LandmarkRunner } from '../models/landmarker.js';
import { toGray, warpAffine } from '../pixels/warp-affine.js';
import type { DetectedFace, FaceBox, Point, Raster } from '../types.js';
import { cutChip, letterboxRaster, resizeRaster, rotateRaster } from './sharp-ops.js';

/** Detector settings. */
export interface DetectOptions {
  /** Minimum detector probability of a face. */
  minScore: number;
  /** NMS overlap threshold. */
  iouThreshold: number;
  /** At most this many faces (best first) get landmarks. */
  maxFaces: number;
  /** Quarter turns tried (ID cards); the one with the most confident face wins. Selfies use [0]. */
  rotations: readonly Rotation[];
}

/** Default detection: the package's 0.65 confidence, NMS at 0.4, upright only. */
export const DEFAULT_DETECT_OPTIONS: DetectOptions = { minScore: 0.65, iouThreshold: 0.4, maxFaces: 8, rotations: [0] };

/** Longest side of the copy the detector works on: its input is 320x240, so more pixels only cost time. */
const WORK_SIDE = 640;
/** Longest side of the chip landmarks are read from: faces come down to about 130 px, so nothing aliases. */
const CHIP_SIDE = 240;

/** The detector plus landmark models. */
export interface DetectModels {
  detector: DetectorRunner;
  landmarker: LandmarkRunner;
}

interface Candidate {
  box: FaceBox;
  score: number;
}

async function boxesIn(models: DetectModels, image: Raster, options: DetectOptions): Promise<Candidate[]> {
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

/**
 * 68 landmarks of the face in `box` (image pixels) seen upright after a clockwise `rotation`: the landmark model
 * reads a grey square of the upright box height, sampled from the image with the rotation folded into the warp.
 */
async function landmarksOf(models: DetectModels, image: Raster, box: FaceBox, rotation: Rotation): Promise<Point[] | undefined> {
  const chip = await cutChip(image, squareAround(box, 1.6, Math.max(box.width, box.height)), CHIP_SIDE);
  if (!chip) return undefined;
  const side = rotation === 90 || rotation === 270 ? box.width : box.height;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const k = chip.scale;
  const [ax, ay] = unrotateVector([side / LANDMARK_SIZE, 0], rotation);
  const [bx, by] = unrotateVector([0, side / LANDMARK_SIZE], rotation);
  const [ox, oy] = unrotateVector([-side / 2, -side / 2], rotation);
  const toChip: Affine = [ax * k, bx * k, (cx + ox - chip.offsetX) * k, ay * k, by * k, (cy + oy - chip.offsetY) * k];
  const out = await models.landmarker.run(toGray(warpAffine(chip.raster, toChip, LANDMARK_SIZE, LANDMARK_SIZE)));
  const points: Point[] = [];
  for (let i = 0; i < 68; i++) {
    const [dx, dy] = unrotateVector([(out[2 * i]! - 0.5) * side, (out[2 * i + 1]! - 0.5) * side], rotation);
    points.push([cx + dx, cy + dy]);
  }
  return points;
}

/** True when the five points, turned into the upright frame of `rotation`, look like an upright face. */
function uprightIn(five: readonly Point[], rotation: Rotation): boolean {
  // Undoing the clockwise turn: the inverse of unrotateVector is the turn by the complementary angle.
  const back = ((360 - rotation) % 360) as Rotation;
  return looksUpright(five.map((p) => unrotateVector(p, back)));
}

/**
 * Detect faces, best first, with boxes and landmarks in the pixels of `image`. Each rotation of `options.rotations`
 * is tried on a small working copy; the rotations are then taken in order of their most confident face until one
 * gives faces whose landmarks look upright (a sideways face can fool the detector, rarely the landmark geometry).
 */
export async function detectFaces(models: DetectModels, image: Raster, options: DetectOptions): Promise<DetectedFace[]> {
  const s = Math.min(1, WORK_SIDE / Math.max(image.width, image.height));
  const work = s < 1 ? await resizeRaster(image, Math.max(1, Math.round(image.width * s)), Math.max(1, Math.round(image.height * s))) : image;
  const fx = image.width / work.width;
  const fy = image.height / work.height;
  const all = await Promise.all(
    options.rotations.map(async (rotation) => {
      const found = await boxesIn(models, await rotateRaster(work, rotation), options);
      const candidates = found.map((c) => {
        const b = unrotateBox(c.box, rotation, work.width, work.height);
        return { score: c.score, box: { x: b.x * fx, y: b.y * fy, width: b.width * fx, height: b.height * fy } };
      });
      return { rotation, candidates };
    }),
  );
  const perRotation = all.filter((r) => r.candidates.length > 0);
  perRotation.sort((a, b) => (b.candidates[0]?.score ?? 0) - (a.candidates[0]?.score ?? 0));
  for (const { rotation, candidates } of perRotation) {
    const faces: DetectedFace[] = [];
    for (const { box, score } of candidates) {
      const landmarks68 = await landmarksOf(models, image, box, rotation);
      if (!landmarks68) continue;
      const landmarks5 = fivePointsFrom68(landmarks68);
      if (uprightIn(landmarks5, rotation)) faces.push({ box, score, landmarks68, landmarks5, rotation });
    }
    if (faces.length > 0) return faces;
  }
  return [];
}
