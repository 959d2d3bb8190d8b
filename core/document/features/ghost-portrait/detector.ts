/**
 * The `ghost_portrait` feature: a second, smaller (often light, greyscale) portrait that matches the main one.
 * The main portrait is the one the face engine's card analysis picked (given by the face_match step, or analysed
 * here); the ghost is searched in contrast-stretched windows (the detector misses small faint faces on the whole
 * card), a bounded number of them within a time budget, then both are embedded and compared.
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
  /** The search stops when this much time has passed since it began; the best candidate so far counts. */
  budgetMs: number;
  /** Windows searched at once: the face lane has two workers (a branch PC's cores), so a lone card uses both. */
  concurrency: number;
}

/**
 * Default bounds: the windows farthest from the portrait come first (where ghosts are printed), so a card without a
 * ghost costs a bounded time. The search runs after the MRZ failed (a read of about 300 ms): 250 ms more keeps such
 * a card within the ID check's 600 ms p95.
 */
export const GHOST_SEARCH_LIMITS: GhostSearchLimits = { maxWindows: 40, budgetMs: 250, concurrency: 2 };

/** Similarity at which the window scan stops early: a sure match needs no more windows. */
const SURE_SIMILARITY = 0.7;

function area(box: Region): number {
  return box.width * box.height;
}

async function stretchedWindow(card: DecodedImage, window: Region, median: boolean): Promise<DecodedImage> {
  const cut = cropRgb(card, window);
  const raw = { raw: { width: cut.width, height: cut.height, channels: 3 as const } };
  // Fine guilloche lines cross a ghost print and hide it from the detector: a 3x3 median removes them (but
  // also detail the embedder needs, so embeddings use the window without it). A call of its own: in one
  // pipeline with normalise, libvips computes the median twice (histogram pass, then output).
  const pixels = median ? await sharp(cut.rgb, raw).median(3).raw().toBuffer() : cut.rgb;
  // A ghost print is light and low-contrast: stretch each window to the full range.
  const { data, info } = await sharp(pixels, raw).normalise().raw().toBuffer({ resolveWithObject: true });
  return { format: card.format, width: info.width, height: info.height, rgb: data };
}

/** A face moved by (-dx, -dy): the same face in a crop whose top-left corner is (dx, dy). */
function shifted(face: DetectedFace, dx: number, dy: number): DetectedFace {
  const move = ([x, y]: [number, number]): [number, number] => [x - dx, y - dy];
  return {
    ...face,
    box: { ...face.box, x: face.box.x - dx, y: face.box.y - dy },
    landmarks5: face.landmarks5.map(move),
    landmarks68: face.landmarks68.map(move),
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
  return face.embed(grey, shifted(portrait, x, y));
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
  const mainEmbedding = await greyPortraitEmbedding(image, main, face);
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
  let scanned = 0;
  let candidates = 0;
  let stopped: 'budget' | 'cancelled' | null = null;
  const rotation = main.rotation;
  const sure = (): boolean => state.best !== null && state.best.similarity >= SURE_SIMILARITY;
  const scan = async (window: Region, index: number): Promise<void> => {
    const filtered = await stretchedWindow(image, window, true);
    let plain: DecodedImage | null = null;
    for (const found of await face.detect(filtered, { rotation })) {
      const box = rounded(found.box, window.x, window.y);
      if (!isGhostCandidate(main.box, box)) continue;
      candidates++;
      plain ??= await stretchedWindow(image, window, false);
      let similarity = face.similarity(mainEmbedding, await face.embed(plain, found));
      if (similarity < SURE_SIMILARITY)
        similarity = Math.max(similarity, await refinedSimilarity(image, box, face, mainEmbedding, rotation));
      if (!state.best || similarity > state.best.similarity) state.best = { similarity, box, window: index };
    }
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < allowed.length && !stopped && !sure()) {
      if (options.signal?.aborted) stopped = 'cancelled';
      else if (performance.now() - started > options.limits.budgetMs) stopped = 'budget';
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
