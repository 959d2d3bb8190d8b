/** Levenshtein distance between two strings (unit costs). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Running character accuracy: 1 − Σ edit distance / Σ ground-truth length over every added line. */
export class CharAccuracy {
  private errors = 0;
  private length = 0;

  /** Add one line's recognised text against its ground truth. */
  add(recognised: string, truth: string): void {
    this.errors += editDistance(recognised, truth);
    this.length += truth.length;
  }

  /** The accuracy so far (1 when nothing was added). */
  value(): number {
    return this.length === 0 ? 1 : Math.max(0, 1 - this.errors / this.length);
  }
}
