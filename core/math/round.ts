/**
 * `Math.round(v)` for a finite v (the sign of a zero aside), for per-pixel loops: V8 does not inline Math.round,
 * which costs several times a Math.floor there (about 7 ns a call against 1 on this project's machines).
 * floor(v + 0.5), less one where adding the half rounded up to the next integer (v = 0.49999999999999994).
 */
export function roundHalfUp(v: number): number {
  const r = Math.floor(v + 0.5);
  return r - 0.5 > v ? r - 1 : r;
}
