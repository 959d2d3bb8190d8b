import { describe, expect, it } from 'vitest';
import { fitLineLength, type PlacedChar } from './line-length.js';

const placed = (text: string, frames: number[]): PlacedChar[] =>
  Array.from(text, (char, i) => ({ char, prob: 0.9, alternatives: [], frame: frames[i] ?? i * 3 }));

/** The text of a line fitted to `length`. */
const fitted = (line: PlacedChar[], length: number): string =>
  fitLineLength(line, length)
    .map((c) => c.char)
    .join('');

describe('fitLineLength', () => {
  it('puts a dropped filler back where the fixed pitch leaves a double gap', () => {
    // "AB<<<CD" with the third filler dropped: frames jump by two pitches between the fillers.
    const line = placed('AB<<CD', [0, 3, 6, 9, 15, 18]);
    expect(fitted(line, 7)).toBe('AB<<<CD');
  });

  it('pads missing trailing fillers and drops the least probable extra character', () => {
    expect(fitted(placed('ABC', [0, 3, 6]), 5)).toBe('ABC<<');
    const extra = placed('ABXCDE', [0, 3, 4, 6, 9, 12]);
    extra[2]!.prob = 0.2;
    expect(fitted(extra, 5)).toBe('ABCDE');
  });

  it('drops an end character standing apart from the line before a weaker one within it', () => {
    // A border beyond the line's start read as "J", five steps before the first character; "O" read unsurely.
    const line = placed('JVISAO<<', [0, 5, 8, 11, 14, 17, 20, 23]);
    line[0]!.prob = 0.7;
    line[5]!.prob = 0.6;
    expect(fitted(line, 7)).toBe('VISAO<<');
    // The same at the end of a line.
    const tail = placed('<<08I', [0, 3, 6, 9, 14]);
    expect(fitted(tail, 4)).toBe('<<08');
    // A filler apart at the end is print with one left out beside it: the weakest character goes instead.
    const filler = placed('ABZ<<', [0, 3, 6, 9, 14]);
    filler[2]!.prob = 0.3;
    expect(fitted(filler, 4)).toBe('AB<<');
  });

  it('measures the pitch finer than a time step: characters 2.5 steps apart, a mark 4 steps before the first', () => {
    // Gaps of 3 and 2 by turns: one at a time their median is 3, and the mark would stand only 1.33 pitches apart.
    const text = 'VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<';
    const frames = [0, 4];
    for (let i = 1; i < text.length; i++) frames.push(frames[i]! + (i % 2 === 1 ? 3 : 2));
    const line = placed(`J${text}`, frames);
    line[0]!.prob = 0.86;
    line[text.indexOf('ON') + 1]!.prob = 0.6;
    expect(fitted(line, 44)).toBe(text);
  });
});
