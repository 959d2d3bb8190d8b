/** Cell side of the coarse orientation map kept in `FingerprintFeatures.extra` (pixels at 500 dpi). */
export const MASK_CELL = 16;
const FORMAT_VERSION = 2;
/** Version 3 appends the ridge counts of the neighbour stars after the map. */
const FORMAT_WITH_RIDGES = 3;
/** Version 4 appends the ridge counts (possibly none) and then the ridge-period map, one byte per cell. */
const FORMAT_WITH_PERIOD = 4;
const hasMap = (version: number | undefined): boolean =>
  version === FORMAT_VERSION || version === FORMAT_WITH_RIDGES || version === FORMAT_WITH_PERIOD;
const hasRidges = (version: number | undefined): boolean =>
  version === FORMAT_WITH_RIDGES || version === FORMAT_WITH_PERIOD;
/** Period map value: no period measured in the cell. */
export const PERIOD_UNKNOWN = 0;
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
 * with ridge counts (one byte per neighbour-star slot, see prepare.ts), version 3 and the counts after the cells
 * (a 4-byte big-endian length, then the counts); with a ridge-period map too (`period`, one byte per cell of the
 * same grid, see decodePeriods), version 4 and the period bytes after the counts.
 */
export function encodeMask(mask: CoarseMask, ridgeCounts?: Uint8Array, period?: Uint8Array): Uint8Array {
  const cells = mask.cols * mask.rows;
  if (period && period.length !== cells) throw new Error('The period map must have one byte per cell');
  const counts = ridgeCounts ?? (period ? new Uint8Array(0) : undefined);
  const out = new Uint8Array(3 + cells + (counts ? 4 + counts.length : 0) + (period ? cells : 0));
  out[0] = period ? FORMAT_WITH_PERIOD : counts ? FORMAT_WITH_RIDGES : FORMAT_VERSION;
  out[1] = mask.cols;
  out[2] = mask.rows;
  out.set(mask.cells.subarray(0, cells), 3);
  if (counts) {
    new DataView(out.buffer).setUint32(3 + cells, counts.length);
    out.set(counts, 7 + cells);
  }
  if (period) out.set(period, 7 + cells + (counts?.length ?? 0));
  return out;
}

/** Unpack `extra`; undefined when absent or not ours (e.g. features imported from an ISO template). */
export function decodeMask(extra: Uint8Array | undefined): CoarseMask | undefined {
  if (!extra || extra.length < 3 || !hasMap(extra[0])) return undefined;
  const cols = extra[1]!;
  const rows = extra[2]!;
  if (extra.length < 3 + cols * rows) return undefined;
  return { cols, rows, cells: extra.slice(3, 3 + cols * rows) };
}

/** The ridge counts stored with `extra` (`slots` of them), or undefined when there are none or they do not fit. */
export function decodeRidgeCounts(extra: Uint8Array | undefined, slots: number): Uint8Array | undefined {
  if (!extra || extra.length < 3 || !hasRidges(extra[0])) return undefined;
  const at = 3 + extra[1]! * extra[2]!;
  if (extra.length < at + 4) return undefined;
  const length = new DataView(extra.buffer, extra.byteOffset, extra.byteLength).getUint32(at);
  if (length !== slots || extra.length < at + 4 + length) return undefined;
  return extra.slice(at + 4, at + 4 + length);
}

/**
 * The ridge-period map stored with `extra` (version 4): per cell of the coarse map, the mean ridge period of its
 * print blocks in tenths of a pixel at 500 dpi, PERIOD_UNKNOWN where none. Undefined when absent or malformed.
 */
export function decodePeriods(extra: Uint8Array | undefined): Uint8Array | undefined {
  if (!extra || extra.length < 7 || extra[0] !== FORMAT_WITH_PERIOD) return undefined;
  const cells = extra[1]! * extra[2]!;
  if (extra.length < 7 + cells) return undefined;
  const at = 7 + cells + new DataView(extra.buffer, extra.byteOffset, extra.byteLength).getUint32(3 + cells);
  if (extra.length !== at + cells) return undefined;
  return extra.slice(at, at + cells);
}

/** The index of the cell at point (x, y) in 500-dpi pixels (also into a period map), -1 outside the map. */
export function cellIndex(mask: CoarseMask, x: number, y: number): number {
  const cx = Math.floor(x / MASK_CELL);
  const cy = Math.floor(y / MASK_CELL);
  if (cx < 0 || cy < 0 || cx >= mask.cols || cy >= mask.rows) return -1;
  return cy * mask.cols + cx;
}
