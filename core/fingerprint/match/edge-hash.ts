/** Quantisation of minutia-pair edges for hashing: bins as wide as the matching tolerances. */

/** Width of a length bin (pixels). */
export const LENGTH_BIN = 8;
/** Angle bins over the full turn: the edge angle in 16 (tolerance PI/8), the relative direction in 12 (PI/6). */
export const ANGLE_BINS = 16;
export const TURN_BINS = 12;

/** Length bin of an edge. */
export function lengthBin(length: number): number {
  return Math.floor(length / LENGTH_BIN);
}

function circularBin(angle: number, bins: number): number {
  const t = (angle + Math.PI) / (2 * Math.PI);
  return Math.min(bins - 1, Math.max(0, Math.floor(t * bins)));
}

/** Bin of the edge angle relative to the minutia direction, in (-PI, PI]. */
export function angleBin(angle: number): number {
  return circularBin(angle, ANGLE_BINS);
}

/** Bin of the neighbour's direction relative to the minutia's, in (-PI, PI]. */
export function turnBin(turn: number): number {
  return circularBin(turn, TURN_BINS);
}

/** Longest edge kept in the neighbour stars (pixels), and so the number of length bins. */
export const MAX_EDGE = 160;
export const LENGTH_BINS = Math.floor(MAX_EDGE / LENGTH_BIN) + 1;
/** Number of distinct keys: the size of the bucket index. */
export const KEY_COUNT = LENGTH_BINS * ANGLE_BINS * TURN_BINS;

/** One integer key per (length, angle, turn) bin triple, in [0, KEY_COUNT). */
export function edgeKey(length: number, angle: number, turn: number): number {
  return (length * ANGLE_BINS + angle) * TURN_BINS + turn;
}
