import { syntheticFeatureRecord } from '../synthetic/minutiae-sets.js';
import type { FingerprintFeatures } from '../types.js';

/**
 * Version of the search index entries of an enrollment: this embedding and the cylinders (cylinders.ts). Entries
 * of another version are rebuilt from the template when the engine starts. 2: cylinders added. 3: cylinders keep
 * their minutia directions (the hash index votes on rotations). 4: the cylinders carry the star edges.
 */
export const EMBEDDING_VERSION = 4;

/** Nearest neighbours per minutia that form a local pair. */
const NEIGHBOURS = 12;
const DISTANCE_BINS = 4;
const ANGLE_BINS = 8;
/** Dimensions: distance x direction of the minutia x direction of its neighbour (4 x 8 x 8). */
export const EMBEDDING_DIMS = DISTANCE_BINS * ANGLE_BINS * ANGLE_BINS;
/** Farthest neighbour considered, pixels at 500 dpi: beyond it skin distortion scrambles the geometry. */
const MAX_DISTANCE = 120;
const DISTANCE_STEP = MAX_DISTANCE / (DISTANCE_BINS - 1);
const ANGLE_STEP = (2 * Math.PI) / ANGLE_BINS;
const TWO_PI = 2 * Math.PI;
/** Synthetic records averaged into the population mean (deterministic, so every install gets the same mean). */
const MEAN_SAMPLES = 400;

function wrap(angle: number): number {
  const a = angle % TWO_PI;
  return a < 0 ? a + TWO_PI : a;
}

/** Square-rooted, L2-normalised soft histogram of local minutia pairs. */
function pairHistogram(features: FingerprintFeatures): Float32Array {
  const out = new Float32Array(EMBEDDING_DIMS);
  const scale = features.dpi > 0 ? 500 / features.dpi : 1;
  const m = features.minutiae;
  const near: { j: number; d: number }[] = [];
  for (let i = 0; i < m.length; i++) {
    const a = m[i]!;
    near.length = 0;
    for (let j = 0; j < m.length; j++) {
      if (j === i) continue;
      const d = Math.hypot(m[j]!.x - a.x, m[j]!.y - a.y) * scale;
      if (d <= MAX_DISTANCE) near.push({ j, d });
    }
    near.sort((u, v) => u.d - v.d);
    for (const { j, d } of near.slice(0, NEIGHBOURS)) {
      const b = m[j]!;
      // Same counter-clockwise, y-down convention as minutia angles.
      const segment = Math.atan2(-(b.y - a.y), b.x - a.x);
      addSoft(
        out,
        d / DISTANCE_STEP,
        wrap(a.angle - segment) / ANGLE_STEP,
        wrap(b.angle - segment) / ANGLE_STEP,
      );
    }
  }
  for (let k = 0; k < out.length; k++) out[k] = Math.sqrt(out[k]!);
  return normalise(out);
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k]! /= norm;
  return v;
}

let populationMean: Float32Array | undefined;

/** Mean histogram of a fixed set of synthetic records: the structure every finger shares. */
function meanHistogram(): Float32Array {
  if (!populationMean) {
    const mean = new Float32Array(EMBEDDING_DIMS);
    for (let s = 1; s <= MEAN_SAMPLES; s++) {
      const h = pairHistogram(syntheticFeatureRecord(0x5eed0000 + s));
      for (let k = 0; k < mean.length; k++) mean[k]! += h[k]! / MEAN_SAMPLES;
    }
    populationMean = mean;
  }
  return populationMean;
}

/**
 * Fixed-length embedding of a minutiae set for the 1:N shortlist. Each minutia and its nearest neighbours give
 * local pairs described by distance and by both directions relative to the joining segment: none of these
 * change when the finger moves or turns on the sensor, so neither does the vector. The soft histogram of the
 * pairs is square-rooted (Hellinger), the population mean is subtracted (what every finger shares would
 * otherwise dominate the cosine), and the result is L2-normalised for cosine distance.
 */
export function computeEmbedding(features: FingerprintFeatures): Float32Array {
  const h = pairHistogram(features);
  const mean = meanHistogram();
  for (let k = 0; k < h.length; k++) h[k]! -= mean[k]!;
  return normalise(h);
}

/** Trilinear vote: linear in distance (clamped), circular in both angles. */
function addSoft(out: Float32Array, dPos: number, aPos: number, bPos: number): void {
  const d0 = Math.min(DISTANCE_BINS - 1, Math.floor(dPos));
  const dw = Math.min(1, dPos - d0);
  const a0 = Math.floor(aPos);
  const aw = aPos - a0;
  const b0 = Math.floor(bPos);
  const bw = bPos - b0;
  for (let di = 0; di < 2; di++) {
    const d = Math.min(DISTANCE_BINS - 1, d0 + di);
    const wd = di === 0 ? 1 - dw : dw;
    if (wd === 0) continue;
    for (let ai = 0; ai < 2; ai++) {
      const abin = (a0 + ai) % ANGLE_BINS;
      const wa = wd * (ai === 0 ? 1 - aw : aw);
      for (let bi = 0; bi < 2; bi++) {
        const bbin = (b0 + bi) % ANGLE_BINS;
        out[(d * ANGLE_BINS + abin) * ANGLE_BINS + bbin]! += wa * (bi === 0 ? 1 - bw : bw);
      }
    }
  }
}
