/** One liveness score with its ground truth. */
export interface LabelledScore {
  score: number;
  /** True for a bona fide presentation, false for an attack. */
  bonaFide: boolean;
}

/** ISO/IEC 30107-3 error rates at a threshold (bona fide when score >= threshold). */
export interface PadRates {
  threshold: number;
  /** Attacks accepted as bona fide. */
  apcer: number;
  /** Bona fide presentations rejected. */
  bpcer: number;
  /** (APCER + BPCER) / 2. */
  acer: number;
}

/** APCER, BPCER and ACER at one threshold. */
export function padRates(items: readonly LabelledScore[], threshold: number): PadRates {
  const attacks = items.filter((i) => !i.bonaFide);
  const bona = items.filter((i) => i.bonaFide);
  const apcer = attacks.length ? attacks.filter((i) => i.score >= threshold).length / attacks.length : 0;
  const bpcer = bona.length ? bona.filter((i) => i.score < threshold).length / bona.length : 0;
  return { threshold, apcer, bpcer, acer: (apcer + bpcer) / 2 };
}

/** Area under the ROC curve (probability a bona fide scores above an attack; ties count half). */
export function auc(items: readonly LabelledScore[]): number {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.score === sorted[i]!.score) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (sorted[k]!.bonaFide) rankSum += rank;
    i = j + 1;
  }
  const pos = items.filter((x) => x.bonaFide).length;
  const neg = items.length - pos;
  if (pos === 0 || neg === 0) return 0.5;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The threshold on a `step` grid in [0, 1] with the lowest ACER (the first of equals). */
export function minAcerThreshold(items: readonly LabelledScore[], step = 0.005): PadRates {
  let best = padRates(items, 0);
  for (let t = step; t <= 1 + 1e-9; t += step) {
    const r = padRates(items, Math.round(t * 1000) / 1000);
    if (r.acer < best.acer) best = r;
  }
  return best;
}
