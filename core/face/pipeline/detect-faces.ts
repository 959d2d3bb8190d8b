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
import type { EmbedRunner } from '../models/embedder.js';
import { longestEmbedding } from './orientation.js';
import { cutChip, letterboxRaster, resizeRaster, rotateRaster, type Chip } from './sharp-ops.js';

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
export const DEFAULT_DETECT_OPTIONS: DetectOptions = {
  minScore: 0.65,
  iouThreshold: 0.4,
  maxFaces: 8,
  rotations: [0],
};

/** Longest side of the copy the detector works on: its input is 320x240, so more pixels only cost time. */
const WORK_SIDE = 640;
/** Longest side of the chip landmarks are read from: faces come down to about 130 px, so nothing aliases. */
const CHIP_SIDE = 240;

/** The detector and landmark models, and the embedder that tells a card's orientation. */
export interface DetectModels {
  detector: DetectorRunner;
  landmarker: LandmarkRunner;
  embedder: EmbedRunner;
}

/** A detector box before landmarks, in image pixels. */
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
 * One landmark pass: a grey square of side `side` centred on (cx, cy) in image pixels, seen upright after a clockwise
 * `rotation` (folded into the warp, so the image itself is never rotated), read by the 64x64 model.
 */
async function landmarkPass(
  models: DetectModels,
  chip: Chip,
  cx: number,
  cy: number,
  side: number,
  rotation: Rotation,
): Promise<Point[]> {
  const k = chip.scale;
  const [ax, ay] = unrotateVector([side / LANDMARK_SIZE, 0], rotation);
  const [bx, by] = unrotateVector([0, side / LANDMARK_SIZE], rotation);
  const [ox, oy] = unrotateVector([-side / 2, -side / 2], rotation);
  const toChip: Affine = [
    ax * k,
    bx * k,
    (cx + ox - chip.offsetX) * k,
    ay * k,
    by * k,
    (cy + oy - chip.offsetY) * k,
  ];
  const out = await models.landmarker.run(
    toGray(warpAffine(chip.raster, toChip, LANDMARK_SIZE, LANDMARK_SIZE)),
  );
  const points: Point[] = [];
  for (let i = 0; i < 68; i++) {
    const [dx, dy] = unrotateVector([(out[2 * i]! - 0.5) * side, (out[2 * i + 1]! - 0.5) * side], rotation);
    points.push([cx + dx, cy + dy]);
  }
  return points;
}

/**
 * 68 landmarks of the face in `box`: a first pass on the square of the upright box height (as the package), then a
 * second on a square 1.2x the first landmarks' extent about their centre. The second pass sees the face framed the
 * same way whatever the detector's box did; measured on lfw-dev: accuracy 99.17% -> 99.40%, EER 1.13% -> 0.87%.
 */
async function landmarksOf(
  models: DetectModels,
  image: Raster,
  box: FaceBox,
  rotation: Rotation,
): Promise<Point[] | undefined> {
  const chip = await cutChip(image, squareAround(box, 1.8, Math.max(box.width, box.height)), CHIP_SIDE);
  if (!chip) return undefined;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const first = await landmarkPass(
    models,
    chip,
    cx,
    cy,
    rotation === 90 || rotation === 270 ? box.width : box.height,
    rotation,
  );
  // Extent of the first landmarks in the upright frame.
  const back = ((360 - rotation) % 360) as Rotation;
  const upright = first.map((p) => unrotateVector([p[0] - cx, p[1] - cy], back));
  const xs = upright.map((p) => p[0]);
  const ys = upright.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [dx, dy] = unrotateVector([(x0 + x1) / 2, (y0 + y1) / 2], rotation);
  return landmarkPass(models, chip, cx + dx, cy + dy, 1.2 * Math.max(x1 - x0, y1 - y0), rotation);
}

/** True when the five points, turned into the upright frame of `rotation`, look like an upright face. */
function uprightIn(five: readonly Point[], rotation: Rotation): boolean {
  // Undoing the clockwise turn: the inverse of unrotateVector is the turn by the complementary angle.
  const back = ((360 - rotation) % 360) as Rotation;
  return looksUpright(five.map((p) => unrotateVector(p, back)));
}

/** The landmarked faces of one turn's candidates that look upright in it, best first. */
async function facesUnder(
  models: DetectModels,
  image: Raster,
  rotation: Rotation,
  candidates: readonly Candidate[],
): Promise<DetectedFace[]> {
  const faces: DetectedFace[] = [];
  for (const { box, score } of candidates) {
    const landmarks68 = await landmarksOf(models, image, box, rotation);
    if (!landmarks68) continue;
    const landmarks5 = fivePointsFrom68(landmarks68);
    if (uprightIn(landmarks5, rotation)) faces.push({ box, score, landmarks68, landmarks5, rotation });
  }
  return faces;
}

/**
 * Detect faces, best first, with boxes and landmarks in the pixels of `image`. Each rotation of `options.rotations`
 * is tried on a small working copy. With one rotation (selfies), its faces whose landmarks look upright are the
 * answer; with several (ID cards), the turn whose main face aligns best (orientation.ts).
 */
export async function detectFaces(
  models: DetectModels,
  image: Raster,
  options: DetectOptions,
): Promise<DetectedFace[]> {
  const s = Math.min(1, WORK_SIDE / Math.max(image.width, image.height));
  const work =
    s < 1
      ? await resizeRaster(
          image,
          Math.max(1, Math.round(image.width * s)),
          Math.max(1, Math.round(image.height * s)),
        )
      : image;
  const fx = image.width / work.width;
  const fy = image.height / work.height;
  const all = await Promise.all(
    options.rotations.map(async (rotation) => {
      const found = await boxesIn(models, await rotateRaster(work, rotation), options);
      const candidates = found.map((c) => {
        const b = unrotateBox(c.box, rotation, work.width, work.height);
        return {
          score: c.score,
          box: { x: b.x * fx, y: b.y * fy, width: b.width * fx, height: b.height * fy },
        };
      });
      return { rotation, candidates };
    }),
  );
  const perRotation = all.filter((r) => r.candidates.length > 0);
  if (perRotation.length === 1) {
    const [only] = perRotation;
    return facesUnder(models, image, only!.rotation, only!.candidates);
  }
  const turns = await Promise.all(
    perRotation.map((r) => facesUnder(models, image, r.rotation, r.candidates)),
  );
  return longestEmbedding(models, image, turns);
}
