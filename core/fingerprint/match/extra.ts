/** Cell side of the coarse orientation map kept in `FingerprintFeatures.extra` (pixels at 500 dpi). */
export const MASK_CELL = 16;
const FORMAT_VERSION = 2;
/** Version 3 appends the ridge counts of the neighbour stars after the map. */
const FORMAT_WITH_RIDGES = 3;
/** Ridge count slot value: not measured. */
export const RIDGES_UNKNOWN = 255;
/** Cell value for background (no print). */
export const BACKGROUND = 255;
/** Cell value for print whose ridge direction is not reliable (counts as print, has no direction). */
export const UNRELIABLE = 254;

/**
 * The print's area and ridge flow as a coarse map: one byte per 16 px cell, the ridge direction in degrees [0, 180)
 * in image terms (x right, y down, towards y), UNRELIABLE, or BACKGROUND.
 */
export interface CoarseMask {
  cols: number;
  rows: number;
  cells: Uint8Array;
}

/**
 * Pack a coarse map as `extra`: version, cols, rows, then one byte per cell (a 640x480 print takes 1,203 bytes);
 * with ridge counts (one byte per neighbour-star slot, see prepare.ts), version 3 and the counts after the cells.
 */
export function encodeMask(mask: CoarseMask, ridgeCounts?: Uint8Array): Uint8Array {
  const cells = mask.cols * mask.rows;
  const out = new Uint8Array(3 + cells + (ridgeCounts ? 4 + ridgeCounts.length : 0));
  out[0] = ridgeCounts ? FORMAT_WITH_RIDGES : FORMAT_VERSION;
  out[1] = mask.cols;
  out[2] = mask.rows;
  out.set(mask.cells.subarray(0, cells), 3);
  if (ridgeCounts) {
    new DataView(out.buffer).setUint32(3 + cells, ridgeCounts.length);
    out.set(ridgeCounts, 7 + cells);
  }
  return out;
}

/** Unpack `extra`; undefined when absent or not ours (e.g. features imported from an ISO template). */
export function decodeMask(extra: Uint8Array | undefined): CoarseMask | undefined {
  if (!extra || extra.length < 3 || (extra[0] !== FORMAT_VERSION && extra[0] !== FORMAT_WITH_RIDGES))
    return undefined;
  const cols = extra[1]!;
  const rows = extra[2]!;
  if (extra.length < 3 + cols * rows) return undefined;
  return { cols, rows, cells: extra.slice(3, 3 + cols * rows) };
}

/** The ridge counts stored with `extra` (`slots` of them), or undefined when there are none or they do not fit. */
export function decodeRidgeCounts(extra: Uint8Array | undefined, slots: number): Uint8Array | undefined {
  if (!extra || extra.length < 3 || extra[0] !== FORMAT_WITH_RIDGES) return undefined;
  const at = 3 + extra[1]! * extra[2]!;
  if (extra.length < at + 4) return undefined;
  const length = new DataView(extra.buffer, extra.byteOffset, extra.byteLength).getUint32(at);
  if (length !== slots || extra.length < at + 4 + length) return undefined;
  return extra.slice(at + 4, at + 4 + length);
}

/** The cell value at point (x, y) in 500-dpi pixels, BACKGROUND outside the map. */
export function cellAt(mask: CoarseMask, x: number, y: number): number {
  const cx = Math.floor(x / MASK_CELL);
  const cy = Math.floor(y / MASK_CELL);
  if (cx < 0 || cy < 0 || cx >= mask.cols || cy >= mask.rows) return BACKGROUND;
  return mask.cells[cy * mask.cols + cx]!;
}

/** Whether point (x, y) in 500-dpi pixels falls on the print. */
export function maskContains(mask: CoarseMask, x: number, y: number): boolean {
  return cellAt(mask, x, y) !== BACKGROUND;
}
