/** Bytes per value of each TIFF field type (TIFF 6.0 and BigTIFF); unknown types count as 1. */
const TYPE_SIZE: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
  16: 8,
  17: 8,
  18: 8,
};

const STRIP_OFFSETS = 273;
const STRIP_BYTE_COUNTS = 279;
const TILE_OFFSETS = 324;
const TILE_BYTE_COUNTS = 325;

/**
 * Whether the first image of a TIFF file holds all its pixel data: every strip (or tile) its directory lists ends
 * within the file. libtiff reads a strip cut short as zeros without an error, so a file cut in half would decode.
 * False when the header or directory itself is cut or malformed.
 */
export function tiffIsComplete(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  const order = bytes.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return false;
  const le = order === 'II';
  const u16 = (o: number): number => (le ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
  const u32 = (o: number): number => (le ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
  const u64 = (o: number): number => Number(le ? bytes.readBigUInt64LE(o) : bytes.readBigUInt64BE(o));
  const big = u16(2) === 43;
  if (!big && u16(2) !== 42) return false;
  if (big && bytes.length < 16) return false;
  const offsetSize = big ? 8 : 4;
  const readOffset = big ? u64 : u32;
  const ifd = readOffset(big ? 8 : 4);
  const countSize = big ? 8 : 2;
  const entrySize = big ? 20 : 12;
  if (ifd + countSize > bytes.length) return false;
  const entries = big ? u64(ifd) : u16(ifd);
  const first = ifd + countSize;
  if (first + entries * entrySize > bytes.length) return false;
  const values = new Map<number, number[]>();
  for (let e = 0; e < entries; e++) {
    const at = first + e * entrySize;
    const tag = u16(at);
    const type = u16(at + 2);
    const count = big ? u64(at + 4) : u32(at + 4);
    const size = (TYPE_SIZE[type] ?? 1) * count;
    const inline = size <= offsetSize;
    const data = inline ? at + 4 + offsetSize : readOffset(at + 4 + offsetSize);
    // Any value stored out of line must lie in the file, pixel data or not.
    if (data + size > bytes.length) return false;
    if (![STRIP_OFFSETS, STRIP_BYTE_COUNTS, TILE_OFFSETS, TILE_BYTE_COUNTS].includes(tag)) continue;
    const read = type === 3 ? u16 : type === 16 ? u64 : u32;
    const step = TYPE_SIZE[type] ?? 4;
    values.set(
      tag,
      Array.from({ length: count }, (_, i) => read(data + i * step)),
    );
  }
  const offsets = values.get(STRIP_OFFSETS) ?? values.get(TILE_OFFSETS);
  const counts = values.get(STRIP_BYTE_COUNTS) ?? values.get(TILE_BYTE_COUNTS);
  if (!offsets || !counts || offsets.length !== counts.length) return false;
  return offsets.every((o, i) => o + counts[i]! <= bytes.length);
}
