import { describe, expect, it } from 'vitest';
import type { CtcLine } from '../ocr/ctc.js';
import { computeCheckDigit } from './check-digit.js';
import {
  changedOnlyByVote,
  failingLookAlikes,
  fillerDoubts,
  freeFillerDoubts,
  interpret,
  interpretOnCells,
  lookAlikePositions,
  withGlyphFillers,
  withGlyphLookAlikes,
} from './interpret.js';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './test-fixtures.js';

const REGION = { x: 0, y: 0, width: 100, height: 30 };

/** A recognised line: every character at `prob`, except those `unsure` lists (position → its probability and rival). */
function line(text: string, prob = 0.99, unsure: Record<number, [number, string]> = {}): CtcLine {
  const chars = Array.from(text).map((char, i) => {
    const doubt = unsure[i];
    return {
      char,
      prob: doubt ? doubt[0] : prob,
      alternatives: doubt ? [{ char: doubt[1], prob: 1 - doubt[0] }] : [],
      frame: i * 2,
    };
  });
  return { text, chars, confidence: prob, foreign: 0 };
}

/** The TD1 specimen with its document number check digit (line 1, position 15) printed wrong. */
const MISPRINTED = [
  TD1_SPECIMEN[0]!.slice(0, 14) + '3' + TD1_SPECIMEN[0]!.slice(15),
  ...TD1_SPECIMEN.slice(1),
];

describe('interpret', () => {
  it('reads the specimen valid', () => {
    const attempt = interpret(
      TD1_SPECIMEN.map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.valid).toBe(true);
    expect(attempt?.reading.lines).toEqual(TD1_SPECIMEN);
    // Settled is said of a failure read as printed: a valid reading with doubtful positions is read with more cuts.
    expect(attempt?.settled).toBe(false);
  });

  it('judges a line by the readings that voted: a cut that read a few characters of noise is no doubt', () => {
    // One cut reads the first line well; another reads a dozen characters of the table beside it, and is not voted.
    const readings = TD1_SPECIMEN.map((l, i) =>
      i === 0 ? [line(l, 0.75), line('9A0901T12E24', 0.15)] : [line(l)],
    );
    const attempt = interpret(readings, REGION);
    expect(attempt?.reading.lines).toEqual(TD1_SPECIMEN);
    expect(attempt?.reading.valid).toBe(true);
  });

  it('reads small print whose fillers all read as a letter (`<` taken for `C`) as an MRZ', () => {
    // No line shows a filler: each run of them reads as a run of C, which only fillers can be.
    const misread = TD1_SPECIMEN.map((l) =>
      l.replace(/<+/g, (run) => (run.length >= 5 ? 'C' : 'K').repeat(run.length)),
    );
    expect(misread.some((l) => l.includes('<'))).toBe(false);
    const attempt = interpret(
      misread.map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.format).toBe('TD1');
    expect(attempt?.reading.valid).toBe(true);
  });

  it('calls a misprint read surely by every cut settled: invalid as printed', () => {
    const attempt = interpret(
      MISPRINTED.map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.valid).toBe(false);
    expect(attempt?.reading.checks.find((c) => c.name === 'documentNumberCheckDigit')?.valid).toBe(false);
    expect(attempt?.settled).toBe(true);
  });

  it('does not call it settled while a cut doubts a character of the failing field', () => {
    const [first, ...rest] = MISPRINTED;
    const attempt = interpret(
      [[line(first!), line(first!, 0.99, { 8: [0.4, '8'] })], ...rest.map((l) => [line(l), line(l)])],
      REGION,
    );
    expect(attempt?.reading.valid).toBe(false);
    expect(attempt?.settled).toBe(false);
  });

  it('ignores doubt outside the failing fields (a name has no check digit)', () => {
    const [first, second, third] = MISPRINTED;
    const attempt = interpret(
      [
        [line(first!), line(first!)],
        [line(second!), line(second!)],
        [line(third!), line(third!, 0.99, { 2: [0.4, 'R'] })],
      ],
      REGION,
    );
    expect(attempt?.settled).toBe(true);
  });

  it('calls an unknown country code read surely settled, and one read in doubt not', () => {
    const [first, second, third] = TD1_SPECIMEN;
    // Nationality (line 2, positions 16-18) QQQ: every check digit holds, the code is not ICAO's.
    const unknown = second!.slice(0, 15) + 'QQQ' + second!.slice(18);
    const sure = interpret([[line(first!)], [line(unknown)], [line(third!)]], REGION);
    expect(sure?.reading.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['nationalityCode']);
    expect(sure?.settled).toBe(true);
    const doubted = interpret(
      [[line(first!)], [line(unknown, 0.99, { 16: [0.5, 'U'] })], [line(third!)]],
      REGION,
    );
    expect(doubted?.settled).toBe(false);
  });

  it('does not call lines of another format settled (two card lines forced into 36 characters)', () => {
    const attempt = interpret(
      MISPRINTED.slice(0, 2).map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.valid).toBe(false);
    expect(attempt?.settled).toBe(false);
  });

  it('does not call a date the calendar lacks settled, however surely read: no document prints one', () => {
    // Birth month 13 with every check digit made to hold (blur can misread two digits that compensate).
    const birth = '741312';
    const second = `${birth}${computeCheckDigit(birth)}${TD1_SPECIMEN[1]!.slice(7, 29)}`;
    const composite =
      TD1_SPECIMEN[0]!.slice(5) + second.slice(0, 7) + second.slice(8, 15) + second.slice(18, 29);
    const lines = [TD1_SPECIMEN[0]!, `${second}${computeCheckDigit(composite)}`, TD1_SPECIMEN[2]!];
    const attempt = interpret(
      lines.map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.lines).toEqual(lines);
    expect(attempt?.reading.valid).toBe(false);
    expect(attempt?.reading.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['birthDateCalendar']);
    expect(attempt?.settled).toBe(false);
  });

  it('does not call a document code its format lacks settled, however surely read', () => {
    const lines = [`P${TD1_SPECIMEN[0]!.slice(1)}`, ...TD1_SPECIMEN.slice(1)];
    const attempt = interpret(
      lines.map((l) => [line(l), line(l)]),
      REGION,
    );
    expect(attempt?.reading.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['documentCode']);
    expect(attempt?.settled).toBe(false);
  });

  it('does not call a failure that one O/0 exchange would mend settled: a misreading, however sure', () => {
    const [first, ...rest] = TD1_SPECIMEN;
    // The document number's 0 (line 1, position 14) read surely as O.
    const misread = first!.slice(0, 13) + 'O' + first!.slice(14);
    const attempt = interpret([[line(misread)], ...rest.map((l) => [line(l)])], REGION);
    expect(attempt?.reading.valid).toBe(false);
    expect(attempt?.settled).toBe(false);
  });

  it("takes a name's filler read as a letter back when the recogniser offered it and the glyph there is a filler", () => {
    // ANNA<MARIA with its separator read as C, a filler the recogniser's runner-up.
    const misread = TD1_SPECIMEN[2]!.replace('ANNA<', 'ANNAC');
    const attempt = interpret(
      [...TD1_SPECIMEN.slice(0, 2), misread].map((l, i) => [
        line(l, 0.99, i === 2 ? { 14: [0.6, '<'] } : {}),
      ]),
      REGION,
    );
    expect(attempt?.reading).toMatchObject({ valid: true, lines: [...TD1_SPECIMEN.slice(0, 2), misread] });
    const doubts = fillerDoubts(attempt!);
    expect(doubts).toEqual({ line: 2, positions: [14] });
    const cells = (text: string) => Array.from(text, (char) => ({ char, prob: 0.9, alternatives: [] }));
    expect(withGlyphFillers(attempt!, doubts, cells(TD1_SPECIMEN[2]!))?.reading.lines).toEqual(TD1_SPECIMEN);
    // The glyph classifier sees a C there too: the letter stays.
    expect(withGlyphFillers(attempt!, doubts, cells(misread))).toBeNull();
  });

  it('in small print, doubts every C, K, S or E of a name, and the glyph there decides', () => {
    // ERIKSSON<<ANNA with its separator read as CC, without a filler among the runner-ups.
    const misread = TD1_SPECIMEN[2]!.replace('ERIKSSON<<', 'ERIKSSONCC');
    const attempt = interpret(
      [...TD1_SPECIMEN.slice(0, 2), misread].map((l, i) => [
        line(l, 0.99, i === 2 ? { 8: [0.85, 'G'], 9: [0.85, 'G'] } : {}),
      ]),
      REGION,
    );
    expect(attempt?.reading.valid).toBe(true);
    expect(fillerDoubts(attempt!).positions).toEqual([]);
    const doubts = fillerDoubts(attempt!, true);
    // ERIKSSONCC: E, K, S, S and the two C (the document code's second character is on another line in TD1).
    expect(doubts.positions).toEqual([0, 3, 4, 5, 8, 9]);
    // The glyph classifier reads the line, as far as the last doubt and one past it.
    const cells = Array.from(TD1_SPECIMEN[2]!.slice(0, 11), (char) => ({
      char,
      prob: 0.9,
      alternatives: [],
    }));
    expect(withGlyphFillers(attempt!, doubts, cells)?.reading.lines).toEqual(TD1_SPECIMEN);
  });

  it('in small print, votes M, N, H and W of a name with the glyph classifier', () => {
    // ANNA<MARIA read ANNA<HARIA, the H unsure; the templates see an M.
    const misread = TD1_SPECIMEN[2]!.replace('MARIA', 'HARIA');
    const attempt = interpret(
      [...TD1_SPECIMEN.slice(0, 2), misread].map((l, i) => [
        line(l, 0.99, i === 2 ? { 15: [0.55, 'N'] } : {}),
      ]),
      REGION,
    );
    expect(attempt?.reading.lines[2]).toBe(misread);
    // ERIKSSON's N, ANNA's two and the H.
    expect(lookAlikePositions(attempt!, 2)).toEqual([7, 11, 12, 15]);
    const cells = (m: [string, number][]) =>
      Array.from(TD1_SPECIMEN[2]!, (char, i) =>
        i === 15
          ? {
              char: m[0]![0],
              prob: m[0]![1],
              alternatives: m.slice(1).map(([c, p]) => ({ char: c, prob: p })),
            }
          : { char, prob: 0.9, alternatives: [] },
      );
    const judged = withGlyphLookAlikes(
      attempt!,
      2,
      [7, 11, 12, 15],
      cells([
        ['M', 0.9],
        ['N', 0.05],
      ]),
    );
    expect(judged?.reading.lines).toEqual(TD1_SPECIMEN);
    expect(judged?.reading.valid).toBe(true);
    // A template as unsure as the recogniser is sure does not overrule it.
    const sure = interpret(
      [...TD1_SPECIMEN.slice(0, 2), misread].map((l) => [line(l)]),
      REGION,
    );
    expect(
      withGlyphLookAlikes(
        sure!,
        2,
        [7, 11, 12, 15],
        cells([
          ['M', 0.6],
          ['H', 0.35],
        ]),
      ),
    ).toBeNull();
    // Asked for a letter among the recogniser's runners-up: the H offered N only, so the templates' M is not taken.
    expect(
      withGlyphLookAlikes(
        attempt!,
        2,
        [15],
        cells([
          ['M', 0.9],
          ['N', 0.05],
        ]),
        true,
      ),
    ).toBeNull();
    // Offered as a runner-up, however unlikely, it is.
    const offered = interpret(
      [...TD1_SPECIMEN.slice(0, 2), misread].map((l, i) => [
        line(l, 0.99, i === 2 ? { 15: [0.55, 'M'] } : {}),
      ]),
      REGION,
    );
    expect(
      withGlyphLookAlikes(
        offered!,
        2,
        [15],
        cells([
          ['M', 0.9],
          ['N', 0.05],
        ]),
        true,
      )?.reading.lines,
    ).toEqual(TD1_SPECIMEN);
  });

  it('in small print, votes look-alikes of a document number with the glyph classifier', () => {
    // A document number BD… read 80… keeps its check digit and the composite (B→8 and D→0 take 7×3 + 3×13 = 60
    // from the sums): only the strokes tell them apart.
    const rest = TD3_SPECIMEN[1]!.slice(10, 43);
    const number = 'BD8902C3<';
    const composite = (doc: string) => computeCheckDigit(doc + rest.slice(3, 10) + rest.slice(11, 33));
    const printed = `${number}${computeCheckDigit(number)}${rest}${composite(`${number}${computeCheckDigit(number)}`)}`;
    const misread = '80' + printed.slice(2);
    const attempt = interpret([[line(TD3_SPECIMEN[0]!)], [line(misread, 0.95)]], REGION);
    expect(attempt?.reading.valid).toBe(true);
    expect(attempt?.reading.lines[1]).toBe(misread);
    const positions = lookAlikePositions(attempt!, 1);
    expect(positions.slice(0, 3)).toEqual([0, 1, 2]);
    const cells = Array.from(printed, (char, i) => ({
      char: i < 2 ? char : misread[i]!,
      prob: 0.99,
      alternatives: [],
    }));
    const judged = withGlyphLookAlikes(attempt!, 1, positions, cells);
    expect(judged?.reading.lines).toEqual([TD3_SPECIMEN[0], printed]);
    expect(judged?.reading.valid).toBe(true);
  });

  it('in small print, takes C, K, S, E or 4 of a free field for a filler where the templates see one', () => {
    // The personal number's padding read CC: two C at weights 7 and 3 add 120, so its check digit still holds.
    const printed = TD3_SPECIMEN[1]!;
    const misread = printed.slice(0, 37) + 'CC' + printed.slice(39);
    const attempt = interpret([[line(TD3_SPECIMEN[0]!)], [line(misread, 0.9)]], REGION);
    expect(attempt?.reading.valid).toBe(true);
    expect(attempt?.reading.lines[1]).toBe(misread);
    // Larger print reads fillers as fillers: only what the recogniser doubted is in doubt there.
    expect(freeFillerDoubts(attempt!, 1, false).positions).toEqual([]);
    const doubts = freeFillerDoubts(attempt!, 1, true);
    // The document number's C, the E, the 4 and the padding's two C.
    expect(doubts.positions).toEqual([7, 29, 32, 37, 38]);
    const cells = Array.from(printed, (char) => ({ char, prob: 0.95, alternatives: [] }));
    expect(withGlyphFillers(attempt!, doubts, cells)?.reading.lines).toEqual(TD3_SPECIMEN);
  });

  it('takes a character alone between fillers of a free field for a filler where the templates see one', () => {
    // A guilloche across the padding made one `<` a K, which weighs as `<` does: every check still holds.
    const printed = TD3_SPECIMEN[1]!;
    const misread = printed.slice(0, 39) + 'K' + printed.slice(40);
    const attempt = interpret([[line(TD3_SPECIMEN[0]!)], [line(misread, 0.95)]], REGION);
    expect(attempt?.reading.valid).toBe(true);
    const doubts = freeFillerDoubts(attempt!, 1, false);
    expect(doubts.positions).toEqual([39]);
    const cells = Array.from(printed, (char) => ({ char, prob: 0.95, alternatives: [] }));
    expect(withGlyphFillers(attempt!, doubts, cells)?.reading.lines).toEqual(TD3_SPECIMEN);
    // Where the templates see the K too, it stays.
    const seen = Array.from(misread, (char) => ({ char, prob: 0.95, alternatives: [] }));
    expect(withGlyphFillers(attempt!, doubts, seen)).toBeNull();
  });

  it('votes look-alikes only in the fields whose check fails', () => {
    // The personal number's Z and B read as 2 and 8, surely: no single change mends its check digit.
    const printed = TD3_SPECIMEN[1]!;
    const misread = printed.slice(0, 28) + '2' + printed.slice(29, 36) + '8' + printed.slice(37);
    const attempt = interpret([[line(TD3_SPECIMEN[0]!)], [line(misread, 0.95)]], REGION);
    expect(attempt?.reading.valid).toBe(false);
    // The document number's 8, 0 and 2 hold their check: only 2E1842268's look-alikes are in doubt.
    expect(failingLookAlikes(attempt!, 1)).toEqual([28, 30, 31, 33, 34, 35, 36]);
    expect(failingLookAlikes(attempt!, 0)).toEqual([]);
    const cells = Array.from(printed, (char) => ({ char, prob: 0.99, alternatives: [] }));
    const judged = withGlyphLookAlikes(attempt!, 1, failingLookAlikes(attempt!, 1), cells);
    expect(judged?.reading.lines).toEqual(TD3_SPECIMEN);
    expect(judged?.reading.valid).toBe(true);
    // The vote changed both characters itself; a reading changed elsewhere too owes that to a repair.
    expect(changedOnlyByVote(attempt!, judged!)).toBe(true);
    const elsewhere = [TD3_SPECIMEN[0]!, TD3_SPECIMEN[1]!.replace('L898', 'L89B')];
    expect(
      changedOnlyByVote(attempt!, { ...judged!, reading: { ...judged!.reading, lines: elsewhere } }),
    ).toBe(false);
  });

  it('weighs the glyph reading as much as every cut together', () => {
    // Small print: each cut reads the personal number's B (line 2, position 36) as 8, in a run of digits, and a
    // 2 of it (position 33) hesitantly as Z too. Either change makes the check digit hold; the templates, which
    // judge each cell alone, see the B.
    const printed = TD3_SPECIMEN[1]!;
    const misread = printed.slice(0, 36) + '8' + printed.slice(37);
    const cut = (): CtcLine => {
      const read = line(misread, 0.99, { 33: [0.8, 'Z'], 36: [0.8, '8'] });
      read.chars[36]!.alternatives = [{ char: 'B', prob: 0.05 }];
      return read;
    };
    const cells = (text: string, doubts: Record<number, [string, number, string, number]>) =>
      Array.from(text, (char, i) => {
        const doubt = doubts[i];
        return doubt
          ? { char: doubt[0], prob: doubt[1], alternatives: [{ char: doubt[2], prob: doubt[3] }] }
          : { char, prob: 0.9, alternatives: [] };
      });
    const glyphs = [
      cells(TD3_SPECIMEN[0]!, {}),
      cells(printed, { 33: ['2', 0.9, 'Z', 0.02], 36: ['B', 0.64, '8', 0.3] }),
    ];
    const attempt = interpretOnCells([[line(TD3_SPECIMEN[0]!)], [cut(), cut(), cut()]], glyphs, REGION);
    expect(attempt?.reading.lines).toEqual(TD3_SPECIMEN);
    expect(attempt?.reading.valid).toBe(true);
  });

  it('reads a group whose cuts show no filler when the templates read its fillers (small faint print)', () => {
    // Each filler read as C, K or S in turn, unsurely (an E behind it): no filler, and no run of one letter.
    const misread = (text: string): CtcLine => {
      const unsure: Record<number, [number, string]> = {};
      const chars = Array.from(text, (char, i) => {
        if (char !== '<') return char;
        unsure[i] = [0.5, 'E'];
        return 'CKS'[i % 3]!;
      });
      return line(chars.join(''), 0.99, unsure);
    };
    const cuts = TD3_SPECIMEN.map((text) => [misread(text), misread(text), misread(text)]);
    const glyphs = TD3_SPECIMEN.map((text) =>
      Array.from(text, (char) => ({ char, prob: 0.9, alternatives: [] })),
    );
    expect(interpretOnCells(cuts, glyphs, REGION)?.reading).toMatchObject({
      valid: true,
      lines: TD3_SPECIMEN,
    });
    // Templates that see no filler either: print, not an MRZ.
    const blind = glyphs.map((cells) => cells.map((c) => (c.char === '<' ? { ...c, char: 'C' } : c)));
    expect(interpretOnCells(cuts, blind, REGION)).toBeNull();
  });
});
