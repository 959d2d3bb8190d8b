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

/**
 * The threshold with the lowest ACER, searched exactly over every distinct score (scores of a saturating model crowd
 * near 1, where a fixed grid is too coarse); the threshold is the midpoint between two neighbouring scores.
 */
export function minAcerThreshold(items: readonly LabelledScore[]): PadRates {
  const scores = [...new Set(items.map((i) => i.score))].sort((a, b) => a - b);
  let best = padRates(items, 0);
  const attacks = items.filter((i) => !i.bonaFide).length || 1;
  const bona = items.filter((i) => i.bonaFide).length || 1;
  const sorted = [...items].sort((a, b) => a.score - b.score);
  // Sweep: below the j-th distinct score every item is rejected; count rejected bona fide and rejected attacks.
  let k = 0;
  let rejectedBona = 0;
  let rejectedAttacks = 0;
  for (let j = 0; j < scores.length; j++) {
    const t = j === 0 ? scores[0]! - 1e-6 : (scores[j - 1]! + scores[j]!) / 2;
    while (k < sorted.length && sorted[k]!.score < t) {
      if (sorted[k]!.bonaFide) rejectedBona++;
      else rejectedAttacks++;
      k++;
    }
    const apcer = (attacks - rejectedAttacks) / attacks;
    const bpcer = rejectedBona / bona;
    if ((apcer + bpcer) / 2 < best.acer) best = { threshold: t, apcer, bpcer, acer: (apcer + bpcer) / 2 };
  }
  return best;
}
