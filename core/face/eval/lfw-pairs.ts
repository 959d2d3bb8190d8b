import fs from 'node:fs';
import path from 'node:path';

/** One pair line of an LFW pairs.txt. */
export interface LfwPair {
  a: string;
  b: string;
  genuine: boolean;
  fold: number;
}

function imagePath(dir: string, name: string, index: string): string {
  return path.join(dir, name, `${name}_${index.padStart(4, '0')}.jpg`);
}

/**
 * Parse an LFW pairs.txt: a header "folds n", then per fold n matched lines "name i j" and n mismatched lines
 * "name1 i name2 j". Paths are resolved inside `dir`.
 */
export function readLfwPairs(dir: string): LfwPair[] {
  const lines = fs
    .readFileSync(path.join(dir, 'pairs.txt'), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = (lines.shift() ?? '').trim().split(/\s+/).map(Number);
  const folds = header[0] ?? 0;
  const n = header[1] ?? 0;
  if (!folds || !n) throw new Error('pairs.txt has no "folds n" header.');
  const pairs: LfwPair[] = [];
  lines.forEach((line, i) => {
    const f = line.trim().split(/\s+/);
    const fold = Math.floor(i / (2 * n));
    if (f.length === 3)
      pairs.push({ a: imagePath(dir, f[0]!, f[1]!), b: imagePath(dir, f[0]!, f[2]!), genuine: true, fold });
    else if (f.length === 4)
      pairs.push({ a: imagePath(dir, f[0]!, f[1]!), b: imagePath(dir, f[2]!, f[3]!), genuine: false, fold });
    else throw new Error(`pairs.txt line ${i + 2} is malformed.`);
  });
  return pairs;
}

/** Identity of an LFW image path (its folder name). */
export function identityOf(file: string): string {
  return path.basename(path.dirname(file));
}
