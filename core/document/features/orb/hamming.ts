/** Brute-force Hamming matching of 256-bit descriptors with Lowe's ratio test. Pure code. */
import { DESCRIPTOR_WORDS } from './brief.js';

/** A query keypoint matched to a train keypoint. */
export interface Match {
  query: number;
  train: number;
  distance: number;
}

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Hamming distance between descriptor `i` of `a` and descriptor `j` of `b`. */
export function hamming(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  let d = 0;
  const ia = i * DESCRIPTOR_WORDS;
  const jb = j * DESCRIPTOR_WORDS;
  for (let w = 0; w < DESCRIPTOR_WORDS; w++) d += popcount((a[ia + w]! ^ b[jb + w]!) >>> 0);
  return d;
}

/**
 * For each query descriptor, its nearest train descriptor when it is clearly nearer than the second nearest
 * (distance < ratio * second) and below `maxDistance` bits.
 */
export function matchRatio(
  query: Uint32Array,
  train: Uint32Array,
  ratio: number,
  maxDistance: number,
): Match[] {
  const queryCount = query.length / DESCRIPTOR_WORDS;
  const trainCount = train.length / DESCRIPTOR_WORDS;
  const matches: Match[] = [];
  for (let q = 0; q < queryCount; q++) {
    let best = 257;
    let second = 257;
    let bestIndex = -1;
    const qa = q * DESCRIPTOR_WORDS;
    for (let t = 0; t < trainCount; t++) {
      const tb = t * DESCRIPTOR_WORDS;
      let d = 0;
      // Stop summing once the pair cannot beat the second best: most pairs are far apart and exit early.
      for (let w = 0; w < DESCRIPTOR_WORDS && d < second; w++)
        d += popcount((query[qa + w]! ^ train[tb + w]!) >>> 0);
      if (d < best) {
        second = best;
        best = d;
        bestIndex = t;
      } else if (d < second) {
        second = d;
      }
    }
    if (bestIndex >= 0 && best <= maxDistance && best < ratio * second)
      matches.push({ query: q, train: bestIndex, distance: best });
  }
  return matches;
}
