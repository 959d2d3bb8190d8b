import type { FmrCalibration } from '../math/calibration.js';

/** Similarity of a pair of embeddings; a missing embedding (no face found) scores as the worst possible (-1). */
export function pairScore(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (!a || !b) return -1;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/** Every cross-identity similarity among the embedded images (the impostor distribution for calibration). */
export function crossIdentityScores(
  embeddings: ReadonlyMap<string, Float32Array | undefined>,
  identityOf: (file: string) => string,
): Float32Array {
  const items = [...embeddings].flatMap(([file, e]) => (e ? [{ id: identityOf(file), e }] : []));
  let count = 0;
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) if (items[i]!.id !== items[j]!.id) count++;
  const out = new Float32Array(count);
  let k = 0;
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    for (let j = i + 1; j < items.length; j++) {
      const b = items[j]!;
      if (a.id !== b.id) out[k++] = pairScore(a.e, b.e);
    }
  }
  return out;
}

/** A calibration as JSON with one table point per line (readable diffs when it is re-measured). */
export function formatCalibration(calibration: FmrCalibration): string {
  const { points, ...rest } = calibration;
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, '');
  const rows = points.map(([s, f]) => `    [${s}, ${f}]`).join(',\n');
  return `${head},\n  "points": [\n${rows}\n  ]\n}\n`;
}
