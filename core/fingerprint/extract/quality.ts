/**
 * Image quality 0-100 from what makes a print matchable: clear ridges (mean orientation coherence over the
 * foreground), enough area (foreground blocks, saturating at about a quarter of a 500-dpi 0.8" x 1" print) and
 * enough minutiae (saturating at 25).
 */
export function imageQuality(
  coherence: Float32Array,
  mask: Uint8Array,
  minutiaeCount: number,
  blocksPerArea = 1,
): number {
  let area = 0;
  let sum = 0;
  for (let b = 0; b < mask.length; b++) {
    if (!mask[b]) continue;
    area++;
    sum += coherence[b]!;
  }
  if (area === 0) return 0;
  const clarity = Math.min(1, sum / area / 0.7);
  const extent = Math.min(1, area / blocksPerArea / 1200);
  const count = Math.min(1, minutiaeCount / 25);
  return Math.round(100 * clarity * Math.sqrt(extent) * count);
}
