import { describe, expect, it } from 'vitest';
import type { CtcLine } from '../ocr/ctc.js';
import { looksLikeMrzLine, looksLikePrint } from './group-reader.js';

/** A recognised line whose characters were all read with probability `prob`. */
function line(text: string, prob = 0.95, foreign = 0): CtcLine {
  const chars = Array.from(text, (char, frame) => ({ char, prob, alternatives: [], frame }));
  return { text, chars, confidence: prob, foreign };
}

describe('what a first line looks like', () => {
  it('takes surely read capitals without fillers for print, and fillers for MRZ text', () => {
    expect(looksLikePrint(line('REPUBLIC OF UTOPIA PASSPORT'.replaceAll(' ', '')))).toBe(true);
    expect(looksLikeMrzLine(line('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'))).toBe(true);
    expect(looksLikePrint(line('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'))).toBe(false);
  });

  it('takes a run of one letter for fillers misread (small print reads `<` as `C`), not for print', () => {
    const misread = line('PCUTOERIKSSONCCANNACMARIACCCCCCCCCCCCCCCCCCC');
    expect(looksLikePrint(misread)).toBe(false);
    expect(looksLikeMrzLine(misread)).toBe(true);
    // Four of one letter is not yet a run.
    expect(looksLikePrint(line('PERSONALNUMBERIIIIDATEOFBIRTH'))).toBe(true);
  });

  it('leaves lower-case print and short readings alone', () => {
    expect(looksLikePrint(line('Surnameandgivennames', 0.9, 0.8))).toBe(true);
    expect(looksLikePrint(line('CCCCCC'))).toBe(false);
    expect(looksLikeMrzLine(line('CCCCCC'))).toBe(false);
  });
});
