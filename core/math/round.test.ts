import { describe, expect, it } from 'vitest';
import { roundHalfUp } from './round.js';

describe('roundHalfUp', () => {
  it('gives Math.round on ties, near-ties, negatives and large values', () => {
    const values = [
      0,
      0.5,
      1.5,
      2.5,
      254.5,
      255,
      -1.5,
      -2.5,
      -0.6,
      0.49999999999999994,
      1.4999999999999998,
      2 ** 52 + 1,
      2 ** 53,
      -(2 ** 52) - 1,
      1e300,
    ];
    let s = 5;
    for (let i = 0; i < 20000; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      values.push((s / 2147483648) * 600 - 300, Math.floor(s / 7) / 4);
    }
    for (const v of values) expect(roundHalfUp(v) === Math.round(v), `${v}`).toBe(true);
  });
});
