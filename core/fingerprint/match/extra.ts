/** Cell side of the coarse foreground mask kept in `FingerprintFeatures.extra` (pixels at 500 dpi). */
export const MASK_CELL = 16;
const FORMAT_VERSION = 1;

/** The print's area as a coarse bitmap: where minutiae could have been found. */
export interface CoarseMask {
  cols: number;
  rows: number;
  bits: Uint8Array;
}

/** Pack a coarse mask as `extra`: version, cols, rows, then one bit per cell (a 640x480 print takes 153 bytes). */
export function encodeMask(mask: CoarseMask): Uint8Array {
  const out = new Uint8Array(3 + Math.ceil((mask.cols * mask.rows) / 8));
  out[0] = FORMAT_VERSION;
  out[1] = mask.cols;
  out[2] = mask.rows;
  for (let i = 0; i < mask.cols * mask.rows; i++) if (mask.bits[i]) out[3 + (i >> 3)]! |= 1 << (i & 7);
  return out;
}

/** Unpack `extra`; undefined when absent or not ours (e.g. features imported from an ISO template). */
export function decodeMask(extra: Uint8Array | undefined): CoarseMask | undefined {
  if (!extra || extra.length < 3 || extra[0] !== FORMAT_VERSION) return undefined;
  const cols = extra[1]!;
  const rows = extra[2]!;
  if (extra.length < 3 + Math.ceil((cols * rows) / 8)) return undefined;
  const bits = new Uint8Array(cols * rows);
  for (let i = 0; i < bits.length; i++) bits[i] = (extra[3 + (i >> 3)]! >> (i & 7)) & 1;
  return { cols, rows, bits };
}

/** Whether point (x, y) in 500-dpi pixels falls in the mask. */
export function maskContains(mask: CoarseMask, x: number, y: number): boolean {
  const cx = Math.floor(x / MASK_CELL);
  const cy = Math.floor(y / MASK_CELL);
  if (cx < 0 || cy < 0 || cx >= mask.cols || cy >= mask.rows) return false;
  return mask.bits[cy * mask.cols + cx] === 1;
}
