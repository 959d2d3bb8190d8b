/** One scored comparison of an evaluation protocol. */
export interface ScoredPair {
  score: number;
  genuine: boolean;
  fold: number;
}

/**
 * True accept rate at a false accept rate: the threshold is the (k+1)-th highest impostor score with
 * k = floor(far * impostors), a pair is accepted when its score is strictly above it.
 */
export function tarAtFar(
  genuine: readonly number[],
  impostor: readonly number[],
  far: number,
): { tar: number; threshold: number } {
  const desc = [...impostor].sort((a, b) => b - a);
  const k = Math.min(desc.length - 1, Math.floor(far * desc.length));
  const threshold = desc[k] ?? 0;
  const tar = genuine.filter((s) => s > threshold).length / Math.max(1, genuine.length);
  return { tar, threshold };
}

/** Equal error rate: the mean of FAR and FRR at the threshold where they are closest. */
export function equalErrorRate(
  genuine: readonly number[],
  impostor: readonly number[],
): { eer: number; threshold: number } {
  const thresholds = [...genuine, ...impostor].sort((a, b) => a - b);
  let best = { gap: Infinity, eer: 1, threshold: 0 };
  for (const t of thresholds) {
    const far = impostor.filter((s) => s >= t).length / impostor.length;
    const frr = genuine.filter((s) => s < t).length / genuine.length;
    const gap = Math.abs(far - frr);
    if (gap < best.gap) best = { gap, eer: (far + frr) / 2, threshold: t };
  }
  return { eer: best.eer, threshold: best.threshold };
}

/** Share of pairs decided right when accepting scores >= threshold. */
export function accuracyAt(pairs: readonly ScoredPair[], threshold: number): number {
  if (pairs.length === 0) return 0;
  return pairs.filter((p) => p.score >= threshold === p.genuine).length / pairs.length;
}

/** The threshold (a midpoint between consecutive scores) that maximises accuracy on `pairs`. */
export function bestThreshold(pairs: readonly ScoredPair[]): number {
  const scores = pairs.map((p) => p.score).sort((a, b) => a - b);
  let best = { acc: -1, t: 0 };
  for (let i = 0; i <= scores.length; i++) {
    const lo = scores[i - 1] ?? (scores[0] ?? 0) - 1;
    const hi = scores[i] ?? (scores[scores.length - 1] ?? 0) + 1;
    const t = (lo + hi) / 2;
    const acc = accuracyAt(pairs, t);
    if (acc > best.acc) best = { acc, t };
  }
  return best.t;
}

/** Cross-validated accuracy: each fold is scored at the threshold chosen on all the other folds. */
export function foldAccuracy(pairs: readonly ScoredPair[]): { mean: number; std: number; perFold: number[] } {
  const folds = [...new Set(pairs.map((p) => p.fold))].sort((a, b) => a - b);
  const perFold = folds.map((f) => {
    const t = bestThreshold(pairs.filter((p) => p.fold !== f));
    return accuracyAt(
      pairs.filter((p) => p.fold === f),
      t,
    );
  });
  const mean = perFold.reduce((s, a) => s + a, 0) / Math.max(1, perFold.length);
  const std = Math.sqrt(perFold.reduce((s, a) => s + (a - mean) ** 2, 0) / Math.max(1, perFold.length));
  return { mean, std, perFold };
}
