import { describe, expect, it } from 'vitest';
import { fitLineLength, type PlacedChar } from './line-length.js';

const placed = (text: string, frames: number[]): PlacedChar[] =>
  Array.from(text, (char, i) => ({ char, prob: 0.9, alternatives: [], frame: frames[i] ?? i * 3 }));

describe('fitLineLength', () => {
  it('puts a dropped filler back where the fixed pitch leaves a double gap', () => {
    // "AB<<<CD" with the third filler dropped: frames jump by two pitches between the fillers.
    const line = placed('AB<<CD', [0, 3, 6, 9, 15, 18]);
    expect(
      fitLineLength(line, 7)
        .map((c) => c.char)
        .join(''),
    ).toBe('AB<<<CD');
  });

  it('pads missing trailing fillers and drops the least probable extra character', () => {
    expect(
      fitLineLength(placed('ABC', [0, 3, 6]), 5)
        .map((c) => c.char)
        .join(''),
    ).toBe('ABC<<');
    const extra = placed('ABXC', [0, 3, 4, 6]);
    extra[2]!.prob = 0.2;
    expect(
      fitLineLength(extra, 3)
        .map((c) => c.char)
        .join(''),
    ).toBe('ABC');
  });
});
