/**
 * The `ghost_portrait` feature: a second, smaller (often light, greyscale) portrait that matches the main one.
 * The main portrait is the one the face engine's card analysis picked (given by the face_match step, or analysed
 * here); the ghost is searched in contrast-stretched windows (the detector misses small faint faces on the whole
 * card), a bounded number of them, farthest from the portrait first; each candidate is embedded and compared with
 * the portrait, and the search stops once one passes.
 */
import sharp from 'sharp';
import type {
  CardFaces,
  DetectedFace,
  FaceDetectOptions,
  QuarterTurn,
} from '../../../contracts/face-engine.js';
import { cropRgb } from '../../../imaging/crop-rgb.js';
import type { DecodedImage } from '../../../imaging/decode.js';
import { median3, stretchContrast } from '../../../imaging/filters.js';
import { clampScore, type FeatureResult, type Region } from '../types.js';
import { ghostScore, isGhostCandidate, planWindows } from './windows.js';

/** What the detector needs from the face engine (core/face's engine implements it). */
export interface FacePort {
  analyseCard(image: DecodedImage): Promise<CardFaces>;
  detect(image: DecodedImage, options?: FaceDetectOptions): Promise<DetectedFace[]>;
  embed(image: DecodedImage, face: DetectedFace): Promise<Float32Array>;
  similarity(a: Float32Array, b: Float32Array): number;
}

/** How much of the card the search may look at. */
export interface GhostSearchLimits {
  /** Windows searched at most, farthest from the portrait first. */
  maxWindows: number;
  /**
   * Once the farther half of the plan is searched, the scan stops when this much time has passed since it began
   * (the card's face analysis comes before it and is not counted); the best candidate so far counts.
   */
  budgetMs: number;
  /** Windows searched at once: the face lane has two workers (a branch PC's cores), so a lone card uses both. */
  concurrency: number;
}

/**
 * Default bounds: the windows farthest from the portrait come first (where ghosts are printed), so a search that
 * finds one stops early and a card without one costs a bounded time. The search runs after the MRZ failed (a read
 * of 200-700 ms on such cards): 250 ms of windows keeps an image without any feature within about a second.
 */
export const GHOST_SEARCH_LIMITS: GhostSearchLimits = { maxWindows: 40, budgetMs: 250, concurrency: 2 };

/**
 * Share of the plan, farthest windows first, searched whatever the time: ghosts are printed away from the portrait,
 * so there a loaded machine answers later rather than missing them. At most the farther half of the plan of a card
 * that fills the photo (up to about 30 windows): a photo whose face is small in it plans many more.
 */
const FAR_SHARE = 0.5;
const MAX_FAR_WINDOWS = 15;

/** Similarity at which the window scan stops early: a sure match needs no more windows. */
const SURE_SIMILARITY = 0.7;

function area(box: Region): number {
  return box.width * box.height;
}

/** The face detector's input: a window is searched at the size the detector sees it, never larger. */
const DETECTOR_INPUT = { width: 320, height: 240 };

/** A window prepared for the detector, and the scale (at most 1) from the card's pixels to its own. */
interface DetectionWindow {
  image: DecodedImage;
  scale: number;
}

/**
 * The window as the detector sees it: brought down to the detector's input size (pixels beyond it would only be
 * filtered to be thrown away), 3x3-median-filtered and stretched. Fine guilloche lines cross a ghost print and hide
 * it from the detector: the median removes them. A ghost print is light and low-contrast: the stretch (in JS, as
 * every window needs it) spreads the window's shades to the full range.
 */
async function detectionWindow(card: DecodedImage, window: Region): Promise<DetectionWindow> {
  const scale = Math.min(1, DETECTOR_INPUT.width / window.width, DETECTOR_INPUT.height / window.height);
  let cut = cropRgb(card, window);
  if (scale < 1) {
    const width = Math.max(1, Math.round(cut.width * scale));
    const height = Math.max(1, Math.round(cut.height * scale));
    const raw = { raw: { width: cut.width, height: cut.height, channels: 3 as const } };
    const rgb = await sharp(cut.rgb, raw)
      .resize(width, height, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer();
    cut = { format: card.format, width, height, rgb };
  }
  return { image: { ...cut, rgb: stretchContrast(median3(cut.rgb, cut.width, cut.height)) }, scale };
}

/**
 * A candidate's window for the embedder: at full size, unfiltered (the median removes detail the embedder needs),
 * normalised by libvips (as when the similarity margins of docs/document-features.md were measured).
 */
async function embeddingWindow(card: DecodedImage, window: Region): Promise<DecodedImage> {
  const cut = cropRgb(card, window);
  const raw = { raw: { width: cut.width, height: cut.height, channels: 3 as const } };
  const { data, info } = await sharp(cut.rgb, raw).normalise().raw().toBuffer({ resolveWithObject: true });
  return { format: cut.format, width: info.width, height: info.height, rgb: data };
}

/**
 * The same face in other pixels: those of the image before it was scaled by `scale`, less (dx, dy) (a crop whose
 * top-left corner is there).
 */
function reframed(face: DetectedFace, scale: number, dx = 0, dy = 0): DetectedFace {
  const point = ([x, y]: [number, number]): [number, number] => [x / scale - dx, y / scale - dy];
  const { x, y, width, height } = face.box;
  return {
    ...face,
    box: { ...face.box, x: x / scale - dx, y: y / scale - dy, width: width / scale, height: height / scale },
    landmarks5: face.landmarks5.map(point),
    landmarks68: face.landmarks68.map(point),
  };
}

/**
 * The portrait's embedding from a grey rendering of the card around it (the ghost is printed in grey: like with
 * like). The crop holds the whole square the embedder's alignment cuts (1.9x the face), so the result is the same
 * as from the whole grey card, at the cost of the portrait's surroundings only.
 */
async function greyPortraitEmbedding(
  card: DecodedImage,
  portrait: DetectedFace,
  face: FacePort,
): Promise<Float32Array> {
  const side = Math.max(portrait.box.width, portrait.box.height) * 2.2;
  const cx = portrait.box.x + portrait.box.width / 2;
  const cy = portrait.box.y + portrait.box.height / 2;
  const x = Math.max(0, Math.floor(cx - side / 2));
  const y = Math.max(0, Math.floor(cy - side / 2));
  const width = Math.min(card.width, Math.ceil(cx + side / 2)) - x;
  const height = Math.min(card.height, Math.ceil(cy + side / 2)) - y;
  const { data, info } = await sharp(card.rgb, {
    raw: { width: card.width, height: card.height, channels: 3 },
  })
    .extract({ left: x, top: y, width, height })
    .recomb([
      [0.299, 0.587, 0.114],
      [0.299, 0.587, 0.114],
      [0.299, 0.587, 0.114],
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey: DecodedImage = { format: card.format, width: info.width, height: info.height, rgb: data };
  return face.embed(grey, reframed(portrait, 1, x, y));
}

/**
 * Second look at a candidate: a square crop 2.2x its size, enlarged to 240 px and stretched, detected and embedded
 * again. A small ghost on a tilted card often gets a poor box in the window, hence poor landmarks and embedding.
 */
async function refinedSimilarity(
  card: DecodedImage,
  box: Region,
  face: FacePort,
  mainEmbedding: Float32Array,
  rotation: QuarterTurn,
): Promise<number> {
  const side = Math.round(Math.max(box.width, box.height) * 2.2);
  const x = Math.max(0, Math.round(box.x + box.width / 2 - side / 2));
  const y = Math.max(0, Math.round(box.y + box.height / 2 - side / 2));
  const width = Math.min(card.width - x, side);
  const height = Math.min(card.height - y, side);
  if (width < 16 || height < 16) return -1;
  const { data, info } = await sharp(card.rgb, {
    raw: { width: card.width, height: card.height, channels: 3 },
  })
    .extract({ left: x, top: y, width, height })
    .resize(240, 240)
    .normalise()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const enlarged: DecodedImage = { format: card.format, width: info.width, height: info.height, rgb: data };
  const again = (await face.detect(enlarged, { rotation })).sort((a, b) => area(b.box) - area(a.box))[0];
  return again ? face.similarity(mainEmbedding, await face.embed(enlarged, again)) : -1;
}

function rounded(box: Region, dx = 0, dy = 0): Region {
  return {
    x: Math.round(box.x + dx),
    y: Math.round(box.y + dy),
    width: Math.round(box.width),
    height: Math.round(box.height),
  };
}

/** Options of one ghost search. */
export interface GhostSearchOptions {
  limits: GhostSearchLimits;
  /** Stops the search between windows (the profile was decided, or the request went away). */
  signal?: AbortSignal;
  /** Window width as a multiple of the portrait's (tests). */
  widthFactor?: number;
  /** Zones where no ghost is printed (a located MRZ): windows mostly inside them are not searched. */
  clear?: readonly Region[];
  /** Score at which the search stops: the profile's minimum for this feature (the check is decided). */
  passScore?: number;
}

/** Run the ghost-portrait detector on a card whose faces the face engine has found. */
export async function detectGhostPortrait(
  card: CardFaces,
  face: FacePort,
  options: GhostSearchOptions,
): Promise<FeatureResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const main = card.portrait;
  if (!main)
    return { feature: 'ghost_portrait', score: 0, region: null, ms: ms(), details: { main_face: false } };
  const image = card.image;
  // Embedded when a first candidate needs it: most windows of most cards hold no face at all.
  let portraitEmbedding: Promise<Float32Array> | null = null;
  const state: { best: { similarity: number; box: Region; window: number } | null } = { best: null };
  const windows = planWindows(
    image.width,
    image.height,
    main.box,
    options.widthFactor,
    main.rotation,
    options.clear,
  );
  const allowed = windows.slice(0, options.limits.maxWindows);
  const farWindows = Math.min(allowed.length, MAX_FAR_WINDOWS, Math.ceil(windows.length * FAR_SHARE));
  let scanned = 0;
  let candidates = 0;
  let stopped: 'budget' | 'cancelled' | null = null;
  const rotation = main.rotation;
  const pass = options.passScore ?? Infinity;
  const enough = (): boolean =>
    state.best !== null &&
    (state.best.similarity >= SURE_SIMILARITY || ghostScore(state.best.similarity) >= pass);
  const scan = async (window: Region, index: number): Promise<void> => {
    const filtered = await detectionWindow(image, window);
    let plain: DecodedImage | null = null;
    for (const seen of await face.detect(filtered.image, { rotation })) {
      const found = reframed(seen, filtered.scale);
      const box = rounded(found.box, window.x, window.y);
      if (!isGhostCandidate(main.box, box)) continue;
      candidates++;
      plain ??= await embeddingWindow(image, window);
      portraitEmbedding ??= greyPortraitEmbedding(image, main, face);
      const mainEmbedding = await portraitEmbedding;
      let similarity = face.similarity(mainEmbedding, await face.embed(plain, found));
      if (similarity < SURE_SIMILARITY)
        similarity = Math.max(similarity, await refinedSimilarity(image, box, face, mainEmbedding, rotation));
      if (!state.best || similarity > state.best.similarity) state.best = { similarity, box, window: index };
    }
  };
  let next = 0;
  const scanStarted = performance.now();
  const lane = async (): Promise<void> => {
    while (next < allowed.length && !stopped && !enough()) {
      if (options.signal?.aborted) stopped = 'cancelled';
      else if (next >= farWindows && performance.now() - scanStarted >= options.limits.budgetMs)
        stopped = 'budget';
      if (stopped) return;
      const index = next++;
      scanned++;
      await scan(allowed[index]!, index + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.limits.concurrency) }, lane));
  const best = state.best;
  const details = {
    main_face: true,
    main_region: rounded(main.box),
    windows_scanned: scanned,
    windows_planned: windows.length,
    ...(stopped ? { stopped } : {}),
    candidates,
    similarity: best ? Math.round(best.similarity * 10_000) / 10_000 : null,
    ...(best ? { found_in_window: best.window } : {}),
  };
  if (!best) return { feature: 'ghost_portrait', score: 0, region: null, ms: ms(), details };
  return {
    feature: 'ghost_portrait',
    score: clampScore(ghostScore(best.similarity)),
    region: best.box,
    ms: ms(),
    details,
  };
}
