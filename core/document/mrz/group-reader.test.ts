import { describe, expect, it } from 'vitest';
import type { CtcLine } from '../ocr/ctc.js';
import { GreyPyramid } from './grey.js';
import { looksLikeMrzLine, looksLikePrint, readingDirection, startedAtCode } from './group-reader.js';

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

  it('takes a run of `4` for blurred fillers, as a run of one letter', () => {
    // A TD1 second line under blur: its fillers read as the diagonal and bar of a `4`.
    const blurred = line('100417571004027C09444444444447', 0.75);
    expect(looksLikeMrzLine(blurred)).toBe(true);
    expect(looksLikePrint(blurred)).toBe(false);
    // Four in a row is a number, not yet a run; nor is a run of another digit.
    expect(looksLikeMrzLine(line('PHONE0124444TO0129999999'))).toBe(false);
  });

  it('takes a dozen lower-case letters the whole model reads surely for print, though few MRZ characters remain', () => {
    // "uber den faulen Hund. Le renard brun" read with the MRZ alphabet, and by the whole model.
    const words = { ...line('UHULEU', 0.75, 0.96), lowerCase: { count: 27, confidence: 0.95 } };
    expect(looksLikePrint(words)).toBe(true);
    // The same line upside down: lower-case letters, read unsurely.
    expect(looksLikePrint({ ...words, lowerCase: { count: 22, confidence: 0.45 } })).toBe(false);
    // An MRZ upside down: its fillers read as `>`, a letter or two in lower case.
    expect(looksLikePrint({ ...line('IOSIOI0', 0.48, 0.8), lowerCase: { count: 1, confidence: 0.9 } })).toBe(
      false,
    );
  });

  it('leaves lower-case print and short readings alone', () => {
    expect(looksLikePrint(line('Surnameandgivennames', 0.9, 0.8))).toBe(true);
    expect(looksLikePrint(line('CCCCCC'))).toBe(false);
    expect(looksLikeMrzLine(line('CCCCCC'))).toBe(false);
  });
});

describe('which way a zone reads', () => {
  const name = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
  const upsideDown = line('96126190Z8960OL', 0.3, 0.2);

  it('reads a zone as found when its first line reads as MRZ text, without reading it turned', async () => {
    let turned = false;
    const direction = await readingDirection(Promise.resolve(line(name)), () => {
      turned = true;
      return Promise.resolve(upsideDown);
    });
    expect(direction).toBe(false);
    expect(turned).toBe(false);
  });

  it('turns a zone whose first line reads as MRZ text only turned', async () => {
    expect(await readingDirection(Promise.resolve(upsideDown), () => Promise.resolve(line(name)))).toBe(true);
  });

  it('goes by a run of fillers when foreign ink beside the text (a strip cut too tall) spoils both readings', async () => {
    const spoilt = line('P<UCTIZENNE<<<<<<<<<<<<<<<<<<', 0.6, 0.4);
    expect(looksLikeMrzLine(spoilt)).toBe(false);
    expect(await readingDirection(Promise.resolve(spoilt), () => Promise.resolve(upsideDown))).toBe(false);
    expect(await readingDirection(Promise.resolve(upsideDown), () => Promise.resolve(spoilt))).toBe(true);
  });

  it('reads neither way a line of print nor one without a filler run either way', async () => {
    const print = line('REPUBLICOFUTOPIAPASSPORT');
    expect(await readingDirection(Promise.resolve(print), () => Promise.resolve(upsideDown))).toBe(null);
    const noRun = line('P<UCTIZENNE<ANNA<<', 0.6, 0.4);
    expect(await readingDirection(Promise.resolve(noRun), () => Promise.resolve(upsideDown))).toBe(null);
  });
});

describe('where a zone starts', () => {
  // Two level lines 800 pixels long, 20 high; each time step (frame) of a reading spans 20 strip columns.
  const pyramid = new GreyPyramid({ width: 1200, height: 400, data: new Uint8Array(1200 * 400).fill(255) });
  const lines = [
    { cx: 600, cy: 200, angle: 0, length: 800, height: 20 },
    { cx: 600, cy: 230, angle: 0, length: 800, height: 20 },
  ];
  const placed = (text: string): CtcLine => ({ ...line(text), columns: { origin: 0, step: 20 } });
  const zone = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';

  it('starts every line at the document code when other ink was read before it, keeping their ends', () => {
    const started = startedAtCode(pyramid, lines, [placed(`HN${zone}`)]);
    expect(started).not.toBeNull();
    const starts = started!.map((l) => l.cx - l.length / 2);
    expect(starts[1]).toBeCloseTo(starts[0]!, 6);
    expect(starts[0]).toBeGreaterThan(200);
    for (const [i, l] of started!.entries()) {
      expect(l.cx + l.length / 2).toBeCloseTo(lines[i]!.cx + lines[i]!.length / 2, 6);
    }
  });

  it('takes digits read for the letters of the state (`UT0`), and tries each cut in turn', () => {
    expect(
      startedAtCode(pyramid, lines, [
        placed('HNI<TD245907<<<<<<<<<<<<<<<<<'),
        placed(`HN${zone.replace('UTO', 'UT0')}`),
      ]),
    ).not.toBeNull();
  });

  it('leaves a zone whose reading starts with its code, or shows none', () => {
    expect(startedAtCode(pyramid, lines, [placed(zone), placed(`HN${zone}`)])).toBeNull();
    expect(startedAtCode(pyramid, lines, [placed(`HN${zone.replace('UTO', 'QQQ')}`)])).toBeNull();
    expect(startedAtCode(pyramid, lines, [line(`HN${zone}`)])).toBeNull();
  });
});
