/** Cell side of the coarse orientation map kept in `FingerprintFeatures.extra` (pixels at 500 dpi). */
export const MASK_CELL = 16;
const FORMAT_VERSION = 2;
/** Cell value for background (no print). */
export const BACKGROUND = 255;

/**
 * The print's area and ridge flow as a coarse map: one byte per 16 px cell, the ridge direction in degrees [0, 180)
 * in image terms (x right, y down, towards y), or BACKGROUND.
 */
export interface CoarseMask {
  cols: number;
  rows: number;
  cells: Uint8Array;
}

/** Pack a coarse map as `extra`: version, cols, rows, then one byte per cell (a 640x480 print takes 1,203 bytes). */
export function encodeMask(mask: CoarseMask): Uint8Array {
  const out = new Uint8Array(3 + mask.cols * mask.rows);
  out[0] = FORMAT_VERSION;
  out[1] = mask.cols;
  out[2] = mask.rows;
  out.set(mask.cells.subarray(0, mask.cols * mask.rows), 3);
  return out;
}

/** Unpack `extra`; undefined when absent or not ours (e.g. features imported from an ISO template). */
export function decodeMask(extra: Uint8Array | undefined): CoarseMask | undefined {
  if (!extra || extra.length < 3 || extra[0] !== FORMAT_VERSION) return undefined;
  const cols = extra[1]!;
  const rows = extra[2]!;
  if (extra.length < 3 + cols * rows) return undefined;
  return { cols, rows, cells: extra.slice(3, 3 + cols * rows) };
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
