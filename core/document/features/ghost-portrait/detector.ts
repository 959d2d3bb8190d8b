/**
 * The `ghost_portrait` feature: a second, smaller (often light, greyscale) portrait that matches the main one.
 * The main face is the largest detected on the card; the ghost is searched in contrast-stretched windows (the
 * detector misses small faint faces on the whole card), then both are embedded and compared.
 */
import sharp from 'sharp';
import type { DecodedImage } from '../../../imaging/decode.js';
import { clampScore, type FeatureResult, type Region } from '../types.js';
import { ghostScore, isGhostCandidate, planWindows } from './windows.js';

/** A detected face as the detector uses it (core/face's DetectedFace has more). */
export interface FaceLike {
  box: Region;
}

/** What the detector needs from the face engine (core/face's engine fits it). */
export interface FacePort {
  detect(image: DecodedImage): Promise<FaceLike[]>;
  // Method syntax on purpose: the engine's embed takes its richer DetectedFace, which it got from detect.
  embed(image: DecodedImage, face: FaceLike): Promise<Float32Array>;
  similarity(a: Float32Array, b: Float32Array): number;
}

/** Similarity at which the window scan stops early: a sure match needs no more windows. */
const SURE_SIMILARITY = 0.7;

function area(box: Region): number {
  return box.width * box.height;
}

async function stretchedWindow(card: DecodedImage, window: Region, median: boolean): Promise<DecodedImage> {
  let pipeline = sharp(card.rgb, { raw: { width: card.width, height: card.height, channels: 3 } }).extract({
    left: window.x,
    top: window.y,
    width: window.width,
    height: window.height,
  });
  // Fine guilloche lines cross a ghost print and hide it from the detector: a 3x3 median removes them (but
  // also detail the embedder needs, so embeddings use the window without it).
  if (median) pipeline = pipeline.median(3);
  // A ghost print is light and low-contrast: stretch each window to the full range.
  const { data, info } = await pipeline.normalise().raw().toBuffer({ resolveWithObject: true });
  return { format: card.format, width: info.width, height: info.height, rgb: data };
}

async function greyCard(card: DecodedImage): Promise<DecodedImage> {
  const { data, info } = await sharp(card.rgb, {
    raw: { width: card.width, height: card.height, channels: 3 },
  })
    .recomb([
      [0.299, 0.587, 0.114],
      [0.299, 0.587, 0.114],
      [0.299, 0.587, 0.114],
    ])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { format: card.format, width: info.width, height: info.height, rgb: data };
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
  const again = (await face.detect(enlarged)).sort((a, b) => area(b.box) - area(a.box))[0];
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

/** Run the ghost-portrait detector on a card. */
export async function detectGhostPortrait(
  card: DecodedImage,
  face: FacePort,
  widthFactor?: number,
): Promise<FeatureResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const faces = await face.detect(card);
  const main = [...faces].sort((a, b) => area(b.box) - area(a.box))[0];
  if (!main)
    return { feature: 'ghost_portrait', score: 0, region: null, ms: ms(), details: { main_face: false } };
  // The ghost is printed in grey: compare it with a grey rendering of the main portrait, like with like.
  const mainEmbedding = await face.embed(await greyCard(card), main);
  let best: { similarity: number; box: Region } | null = null;
  const windows = planWindows(card.width, card.height, main.box, widthFactor);
  let scanned = 0;
  let candidates = 0;
  for (const window of windows) {
    scanned++;
    const image = await stretchedWindow(card, window, true);
    let plain: DecodedImage | null = null;
    for (const found of await face.detect(image)) {
      const box = rounded(found.box, window.x, window.y);
      if (!isGhostCandidate(main.box, box)) continue;
      candidates++;
      plain ??= await stretchedWindow(card, window, false);
      let similarity = face.similarity(mainEmbedding, await face.embed(plain, found));
      if (similarity < SURE_SIMILARITY)
        similarity = Math.max(similarity, await refinedSimilarity(card, box, face, mainEmbedding));
      if (!best || similarity > best.similarity) best = { similarity, box };
    }
    if (best && best.similarity >= SURE_SIMILARITY) break;
  }
  const details = {
    main_face: true,
    main_region: rounded(main.box),
    windows_scanned: scanned,
    windows_planned: windows.length,
    candidates,
    similarity: best ? Math.round(best.similarity * 10_000) / 10_000 : null,
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
