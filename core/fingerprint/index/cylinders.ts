import { wrapAngle } from '../match/geometry.js';
import type { FingerprintFeatures } from '../types.js';
import { POSTING_DIRECTION_LEVELS } from './rotation-votes.js';
import { computeStarEdges, type StarEdges } from './star-edges.js';

/**
 * Binary local descriptors for the 1:N second stage: one Minutia-Cylinder-Code-like cylinder per minutia. In the
 * minutia's own frame (origin at the minutia, x along its direction) an 8 x 8 grid of 20-pixel cells covers the
 * square of radius 80 px; each cell has 4 bins of neighbour direction relative to the minutia's. Every neighbour
 * adds a Gaussian (sigma 10 px) over the cells and a linear split over the two nearest direction bins; a bin is
 * set when its sum exceeds 0.3. Translation and rotation do not change a cylinder, and a partial print keeps the
 * cylinders of the minutiae it still shows, so two impressions of a finger share many close cylinders.
 */

/**
 * Version of the descriptors below; stored descriptors of another version are rebuilt. 2: directions kept. 3: the
 * print's star edges stored with them.
 */
export const CYLINDER_VERSION = 3;
/** Levels of a cylinder's quantised minutia direction (6 bits): the 1:N hash index votes on rotations with them. */
export const DIRECTION_LEVELS = POSTING_DIRECTION_LEVELS;
const RADIUS = 80;
const CELLS = 8;
const DIRECTION_BINS = 4;
const SIGMA = 10;
const THRESHOLD = 0.3;
/** Minutiae with fewer neighbours in reach give near-empty cylinders that match anything sparse. */
const MIN_NEIGHBOURS = 2;
/** Bits per cylinder and 32-bit words per cylinder. */
export const CYLINDER_BITS = CELLS * CELLS * DIRECTION_BINS;
export const CYLINDER_WORDS = CYLINDER_BITS / 32;
/** Best cylinder similarities averaged into a print's score (Local Similarity Sort). */
const TOP_PAIRS = 8;
const TWO_PI = 2 * Math.PI;
const CELL = (2 * RADIUS) / CELLS;
const REACH = RADIUS + 2 * SIGMA;

/**
 * The cylinders of one print: `n` cylinders of CYLINDER_WORDS words, the number of set bits of each and the
 * direction of each cylinder's minutia in DIRECTION_LEVELS steps (image terms).
 */
export interface Cylinders {
  n: number;
  bits: Uint32Array;
  counts: Uint16Array;
  directions: Uint8Array;
  /** The print's neighbour-star edges (star-edges.ts), stored and indexed with the cylinders. */
  stars: StarEdges;
}

/** Set bits of a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function fromBits(
  bits: Uint32Array,
  directions: Uint8Array,
  stars: StarEdges,
  counts = new Uint16Array(bits.length / CYLINDER_WORDS),
): Cylinders {
  const n = bits.length / CYLINDER_WORDS;
  if (directions.length !== n || counts.length !== n) throw new Error('Cylinders need one direction each');
  for (let c = 0; c < n; c++) {
    let total = 0;
    for (let w = 0; w < CYLINDER_WORDS; w++) total += popcount(bits[c * CYLINDER_WORDS + w]!);
    counts[c] = total;
  }
  return { n, bits, counts, directions, stars };
}

/** The cylinders of a minutiae set (works on minutiae alone, e.g. ISO-imported templates). */
export function computeCylinders(features: FingerprintFeatures): Cylinders {
  const scale = features.dpi > 0 ? 500 / features.dpi : 1;
  const m = features.minutiae;
  const n = m.length;
  const x = m.map((p) => p.x * scale);
  const y = m.map((p) => p.y * scale);
  // Image terms (y down): the direction is the negated counter-clockwise angle, as in the matcher.
  const dir = m.map((p) => wrapAngle(-p.angle));
  const sums = new Float32Array(CYLINDER_BITS);
  const words: number[] = [];
  const directions: number[] = [];
  const twoSigma2 = 2 * SIGMA * SIGMA;
  const cutoff2 = 9 * SIGMA * SIGMA;
  for (let i = 0; i < n; i++) {
    sums.fill(0);
    const cos = Math.cos(-dir[i]!);
    const sin = Math.sin(-dir[i]!);
    let neighbours = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dx = x[j]! - x[i]!;
      const dy = y[j]! - y[i]!;
      if (dx * dx + dy * dy > REACH * REACH) continue;
      neighbours++;
      const lx = cos * dx - sin * dy;
      const ly = sin * dx + cos * dy;
      const turn = ((wrapAngle(dir[j]! - dir[i]!) + Math.PI) / TWO_PI) * DIRECTION_BINS - 0.5;
      const t0 = Math.floor(turn);
      const tw = turn - t0;
      const b0 = (t0 + DIRECTION_BINS) % DIRECTION_BINS;
      const b1 = (t0 + 1 + DIRECTION_BINS) % DIRECTION_BINS;
      for (let gy = 0; gy < CELLS; gy++) {
        const ey = (ly - (-RADIUS + (gy + 0.5) * CELL)) ** 2;
        if (ey > cutoff2) continue;
        for (let gx = 0; gx < CELLS; gx++) {
          const e = ey + (lx - (-RADIUS + (gx + 0.5) * CELL)) ** 2;
          if (e > cutoff2) continue;
          const g = Math.exp(-e / twoSigma2);
          const base = (gy * CELLS + gx) * DIRECTION_BINS;
          sums[base + b0]! += g * (1 - tw);
          sums[base + b1]! += g * tw;
        }
      }
    }
    if (neighbours < MIN_NEIGHBOURS) continue;
    const cylinder = new Array<number>(CYLINDER_WORDS).fill(0);
    for (let k = 0; k < CYLINDER_BITS; k++) if (sums[k]! > THRESHOLD) cylinder[k >> 5]! |= 1 << (k & 31);
    words.push(...cylinder);
    directions.push(Math.round(((dir[i]! + TWO_PI) / TWO_PI) * DIRECTION_LEVELS) % DIRECTION_LEVELS);
  }
  return fromBits(Uint32Array.from(words), Uint8Array.from(directions), computeStarEdges(features));
}

/**
 * Bytes of the cylinders, for storage: the version byte, the cylinder count and the star-edge count (2 bytes each,
 * little-endian), the bits (the host's word order: little-endian on every supported platform), one direction byte
 * per cylinder, then the star edges' keys (2 bytes each) and directions (1 byte each).
 */
export function encodeCylinders(cylinders: Cylinders): Uint8Array {
  const bitBytes = cylinders.bits.byteLength;
  const m = cylinders.stars.keys.length;
  const out = new Uint8Array(5 + bitBytes + cylinders.n + 3 * m);
  const view = new DataView(out.buffer);
  out[0] = CYLINDER_VERSION;
  view.setUint16(1, cylinders.n, true);
  view.setUint16(3, m, true);
  out.set(new Uint8Array(cylinders.bits.buffer, cylinders.bits.byteOffset, bitBytes), 5);
  out.set(cylinders.directions, 5 + bitBytes);
  const keysAt = 5 + bitBytes + cylinders.n;
  cylinders.stars.keys.forEach((key, e) => {
    view.setUint16(keysAt + 2 * e, key, true);
  });
  out.set(cylinders.stars.directions, keysAt + 2 * m);
  return out;
}

/** Cylinders from their stored bytes (of this CYLINDER_VERSION: older ones are rebuilt when the engine starts). */
export function decodeCylinders(bytes: Uint8Array): Cylinders {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length >= 5 ? view.getUint16(1, true) : 0;
  const m = bytes.length >= 5 ? view.getUint16(3, true) : 0;
  const bitBytes = n * CYLINDER_WORDS * 4;
  if (bytes[0] !== CYLINDER_VERSION || bytes.length !== 5 + bitBytes + n + 3 * m)
    throw new Error('Cylinder bytes have another version or the wrong length');
  // One fresh, aligned buffer for bits, counts and directions: the engine holds a gallery of these in memory, and
  // views into the decrypted bytes would keep whole (pooled) buffers alive.
  const arena = new ArrayBuffer(bitBytes + 3 * n);
  new Uint8Array(arena, 0, bitBytes).set(bytes.subarray(5, 5 + bitBytes));
  const directions = new Uint8Array(arena, bitBytes + 2 * n, n);
  directions.set(bytes.subarray(5 + bitBytes, 5 + bitBytes + n));
  const keysAt = 5 + bitBytes + n;
  const stars = {
    keys: Uint16Array.from({ length: m }, (_, e) => view.getUint16(keysAt + 2 * e, true)),
    directions: bytes.slice(keysAt + 2 * m, keysAt + 3 * m),
  };
  return fromBits(
    new Uint32Array(arena, 0, n * CYLINDER_WORDS),
    directions,
    stars,
    new Uint16Array(arena, bitBytes, n),
  );
}

/**
 * Similarity of two prints from their cylinders, in [0, 1]: for each probe cylinder the best normalised Hamming
 * similarity 1 - |a xor b| / (|a| + |b|) over the other print's cylinders, then the mean of the best TOP_PAIRS.
 * About 20 microseconds for two 40-minutia prints: cheap enough to rank thousands of vector-index candidates.
 */
export function cylinderSimilarity(probe: Cylinders, other: Cylinders): number {
  return similarityAt(probe, other.bits, other.counts, 0, other.n);
}

/**
 * `cylinderSimilarity` of the probe and a print whose `n` cylinders are held in a shared array from cylinder `first`
 * on (bits from word first x CYLINDER_WORDS of `bits`), with their set-bit counts in `counts[0 .. n - 1]`.
 */
export function similarityAt(
  probe: Cylinders,
  bits: Uint32Array,
  counts: Uint16Array,
  first: number,
  n: number,
): number {
  if (probe.n === 0 || n === 0) return 0;
  const best = new Float64Array(probe.n);
  const a = probe.bits;
  const b = bits;
  for (let i = 0; i < probe.n; i++) {
    const ia = i * CYLINDER_WORDS;
    const ca = probe.counts[i]!;
    // The 8 words of the probe cylinder, unrolled: this loop runs ~2000 times per candidate.
    const a0 = a[ia]!,
      a1 = a[ia + 1]!,
      a2 = a[ia + 2]!,
      a3 = a[ia + 3]!;
    const a4 = a[ia + 4]!,
      a5 = a[ia + 5]!,
      a6 = a[ia + 6]!,
      a7 = a[ia + 7]!;
    let top = 0;
    for (let j = 0, jb = first * CYLINDER_WORDS; j < n; j++, jb += CYLINDER_WORDS) {
      const cb = counts[j]!;
      const differ =
        popcount(a0 ^ b[jb]!) +
        popcount(a1 ^ b[jb + 1]!) +
        popcount(a2 ^ b[jb + 2]!) +
        popcount(a3 ^ b[jb + 3]!) +
        popcount(a4 ^ b[jb + 4]!) +
        popcount(a5 ^ b[jb + 5]!) +
        popcount(a6 ^ b[jb + 6]!) +
        popcount(a7 ^ b[jb + 7]!);
      const total = ca + cb;
      const sim = total > 0 ? 1 - differ / total : 0;
      if (sim > top) top = sim;
    }
    best[i] = top;
  }
  best.sort();
  let sum = 0;
  const count = Math.min(TOP_PAIRS, probe.n);
  for (let k = 0; k < count; k++) sum += best[probe.n - 1 - k]!;
  return sum / TOP_PAIRS;
}
