import { describe, expect, it } from 'vitest';
import { charsetFromDictionary, decodeCtc, lowerCaseClasses, readLowerCase } from './ctc.js';

describe('CTC greedy decoding restricted to a charset', () => {
  // Classes: 0 blank, 1 'A', 2 'B', 3 '中' (masked out), 4 '<'.
  const charset = charsetFromDictionary(['A', 'B', '中', '<'], 'AB<');

  function matrix(rows: number[][]): Float32Array {
    return Float32Array.from(rows.flat());
  }

  it('collapses repeats, splits on blanks and ignores masked classes', () => {
    const probs = matrix([
      [0.1, 0.8, 0.05, 0.05, 0],
      [0.1, 0.8, 0.05, 0.05, 0],
      [0.9, 0.05, 0.05, 0, 0],
      [0.1, 0.7, 0.1, 0.1, 0],
      [0.6, 0, 0.1, 0.2, 0.1],
      [0.1, 0, 0, 0, 0.9],
    ]);
    const line = decodeCtc(probs, 6, 5, charset);
    // Step 4: the blank (0.6) outweighs every character together, the masked one included.
    expect(line.text).toBe('AA<');
    expect(line.chars[0]?.alternatives[0]?.char).toBe('B');
    expect(line.chars[2]?.frame).toBe(5);
    expect(line.confidence).toBeGreaterThan(0.8);
  });

  it('reads a character where characters together outweigh the blank, though none alone does', () => {
    // Mass split between look-alikes: A 0.35 and B 0.3 against a blank of 0.35.
    const split = decodeCtc(matrix([[0.35, 0.35, 0.3, 0, 0]]), 1, 5, charset);
    expect(split.text).toBe('A');
    // Its probability is weighed among the characters: 0.35 / 0.65.
    expect(split.chars[0]?.prob).toBeCloseTo(0.35 / 0.65, 5);
    expect(split.chars[0]?.alternatives[0]).toMatchObject({ char: 'B' });
    // Allowed and masked classes share the ink evenly: the best allowed character is read.
    expect(decodeCtc(matrix([[0.3, 0, 0, 0.35, 0.35]]), 1, 5, charset).text).toBe('<');
    // A masked class holds most of the ink (another script, an MRZ upside down): no character is made up.
    expect(decodeCtc(matrix([[0.3, 0, 0.1, 0.6, 0]]), 1, 5, charset).text).toBe('');
  });

  it('tells how much of the ink went to characters outside the allowed set', () => {
    const allowed = decodeCtc(matrix([[0.1, 0.9, 0, 0, 0]]), 1, 5, charset);
    expect(allowed.foreign).toBeCloseTo(0, 5);
    const masked = decodeCtc(matrix([[0.1, 0.09, 0, 0.81, 0]]), 1, 5, charset);
    expect(masked.foreign).toBeCloseTo(0.9, 5);
  });

  it('keeps the best letter, digit and filler among the runner-ups, however many of one kind outrank them', () => {
    // Classes: 0 blank, 1 'R', 2 '9', 3 '2', 4 '0', 5 '<', 6 'B'. A small R read as 9: every digit outranks it.
    const mixed = charsetFromDictionary(['R', '9', '2', '0', '<', 'B'], 'R920<B');
    const line = decodeCtc(matrix([[0.05, 0.06, 0.4, 0.25, 0.2, 0.03, 0.01]]), 1, 7, mixed);
    expect(line.text).toBe('9');
    // The two best runner-ups, then the best letter and the filler: a field of letters still has its R.
    expect(line.chars[0]?.alternatives.map((a) => a.char)).toEqual(['2', '0', 'R', '<']);
  });

  it('reads a full-width form as its character: one character, its mass summed, none of it foreign', () => {
    // Classes: 0 blank, 1 '9', 2 '0', 3 '９' (full width), 4 '中'. OCR-B digits draw much mass to full-width forms.
    const wide = charsetFromDictionary(['9', '0', '\uff19', '中'], '90');
    const line = decodeCtc(
      matrix([
        [0.1, 0.2, 0.3, 0.4, 0],
        [0.1, 0.45, 0, 0.45, 0],
        [0.9, 0, 0, 0, 0.1],
      ]),
      3,
      5,
      wide,
    );
    // Step 1: 0.2 + 0.4 for `9` outweighs `0`; steps 1-2 are one `9` whichever form led.
    expect(line.text).toBe('9');
    expect(line.chars[0]?.prob).toBeCloseTo(0.9, 5);
    expect(line.foreign).toBeCloseTo(0.1 / 1.9, 5);
  });

  it('decodes nothing from blanks only', () => {
    expect(decodeCtc(matrix([[1, 0, 0, 0, 0]]), 1, 5, charset)).toMatchObject({ text: '', confidence: 0 });
  });
});

describe('lower-case letters read by the whole model', () => {
  it('finds the lower-case classes of a dictionary, of any cased script', () => {
    expect([...lowerCaseClasses(['a', 'B', '中', 'é', '<', 'ж', '1', 'ab'])]).toEqual([1, 4, 6]);
  });

  it('counts lower-case letters of the unmasked reading and their mean probability', () => {
    // Classes: 0 blank, 1 'a', 2 'B', 3 'c'.
    const lower = new Set([1, 3]);
    const probs = Float32Array.from(
      [
        [0.1, 0.8, 0.1, 0],
        [0.1, 0.6, 0.1, 0.2],
        [0.9, 0.1, 0, 0],
        [0.1, 0.1, 0.8, 0],
        [0.2, 0, 0, 0.8],
        [0.1, 0.9, 0, 0],
      ].flat(),
    );
    // a (0.8: the best of its two steps), B not counted, c (0.8), a (0.9).
    const read = readLowerCase(probs, 6, 4, lower);
    expect(read.count).toBe(3);
    expect(read.confidence).toBeCloseTo((0.8 + 0.8 + 0.9) / 3, 5);
    expect(readLowerCase(Float32Array.from([1, 0, 0, 0]), 1, 4, lower)).toEqual({ count: 0, confidence: 0 });
  });
});
