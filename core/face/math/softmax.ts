/** Numerically stable softmax (subtracts the max logit before exponentiating). */
export function softmax(logits: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]!);
  const exps: number[] = [];
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp(logits[i]! - max);
    exps.push(e);
    sum += e;
  }
  return exps.map((e) => e / sum);
}
