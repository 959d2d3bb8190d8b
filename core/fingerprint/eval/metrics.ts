/** Error rates of a verification experiment, in percent. */
export interface ErrorRates {
  eer: number;
  fmr100: number;
  fmr1000: number;
  zeroFmr: number;
}

/** False non-match rate (%) when accepting scores >= threshold. */
function fnmrAt(genuine: Float64Array, threshold: number): number {
  let rejected = 0;
  for (const g of genuine) if (g < threshold) rejected++;
  return (100 * rejected) / genuine.length;
}

/**
 * FVC-style error rates from genuine and impostor scores (higher = more similar; accept when score >= t).
 * EER is taken where FMR and FNMR cross (their mean at the closest threshold); FMR100/FMR1000 are the lowest FNMR
 * with FMR <= 1% / 0.1%; ZeroFMR the FNMR at the lowest threshold with no false match.
 */
export function errorRates(genuineScores: number[], impostorScores: number[]): ErrorRates {
  const genuine = Float64Array.from(genuineScores).sort();
  const impostor = Float64Array.from(impostorScores).sort();
  const thresholds = Array.from(new Set([...genuine, ...impostor])).sort((a, b) => a - b);
  thresholds.push(Infinity);
  let eer = 100;
  let bestGap = Infinity;
  let fmr100 = 100;
  let fmr1000 = 100;
  let i = 0;
  let g = 0;
  for (const t of thresholds) {
    while (i < impostor.length && impostor[i]! < t) i++;
    while (g < genuine.length && genuine[g]! < t) g++;
    const fmr = (100 * (impostor.length - i)) / impostor.length;
    const fnmr = (100 * g) / genuine.length;
    const gap = Math.abs(fmr - fnmr);
    if (gap < bestGap) {
      bestGap = gap;
      eer = (fmr + fnmr) / 2;
    }
    if (fmr <= 1 && fnmr < fmr100) fmr100 = fnmr;
    if (fmr <= 0.1 && fnmr < fmr1000) fmr1000 = fnmr;
  }
  const maxImpostor = impostor.length > 0 ? impostor[impostor.length - 1]! : -Infinity;
  const zeroFmr = fnmrAt(genuine, nextAbove(maxImpostor));
  return { eer, fmr100, fmr1000, zeroFmr };
}

function nextAbove(v: number): number {
  return v === -Infinity ? -Infinity : v + Math.max(1e-9, Math.abs(v) * 1e-12);
}

/** Median and 95th percentile of a list of numbers. */
export function percentiles(values: number[]): { p50: number; p95: number } {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return { p50: 0, p95: 0 };
  return { p50: s[Math.floor((s.length - 1) * 0.5)]!, p95: s[Math.floor((s.length - 1) * 0.95)]! };
}
