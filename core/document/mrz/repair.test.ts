import { describe, expect, it } from 'vitest';
import { computeCheckDigit } from './check-digit.js';
import { repairMrz, showsFillers, type CandidateChar } from './repair.js';
import { TD3_SPECIMEN } from './test-fixtures.js';
import { validateMrzLines } from './validate.js';

/** Candidates read as `text`, each sure at `prob`, with optional runner-ups per position. */
function read(
  text: string,
  prob = 0.9,
  alternatives: Record<number, { char: string; prob: number }[]> = {},
): CandidateChar[] {
  return Array.from(text, (char, i) => ({ char, prob, alternatives: alternatives[i] ?? [] }));
}

describe('repairMrz', () => {
  it('turns lone letters in the fillers after a name back into fillers, and leaves names alone', () => {
    const put = (line: string, at: number, text: string): string =>
      line.slice(0, at) + text + line.slice(at + text.length);
    const junk = put(put(put(TD3_SPECIMEN[0]!, 30, 'C'), 34, 'KC'), 43, 'C');
    expect(repairMrz('TD3', [read(junk), read(TD3_SPECIMEN[1]!)])[0]).toBe(TD3_SPECIMEN[0]);
    const three = put(TD3_SPECIMEN[0]!, 38, 'ABC');
    expect(repairMrz('TD3', [read(three), read(TD3_SPECIMEN[1]!)])[0]).toBe(three);
    // A longer run without a vowel is no name part.
    const consonants = put(TD3_SPECIMEN[0]!, 36, 'KCSSK');
    expect(repairMrz('TD3', [read(consonants), read(TD3_SPECIMEN[1]!)])[0]).toBe(TD3_SPECIMEN[0]);
    // Also where every filler before it was read as one letter, which gives them back first.
    const letters = put(put(TD3_SPECIMEN[0]!, 25, 'S'.repeat(12)), 38, 'KCSSK');
    expect(repairMrz('TD3', [read(letters), read(TD3_SPECIMEN[1]!)])[0]).toBe(TD3_SPECIMEN[0]);
    const td1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6'];
    const names = 'DE<LA<CRUZ<<LUCAS'.padEnd(30, '<');
    expect(repairMrz('TD1', [read(td1[0]!), read(td1[1]!), read(put(names, 29, 'C'))])[2]).toBe(names);
  });

  it('reads a name field with the fillers the recogniser offered where the separator and the trailing run lie', () => {
    const put = (line: string, at: number, text: string): string =>
      line.slice(0, at) + text + line.slice(at + text.length);
    const offered = (...at: number[]): Record<number, { char: string; prob: number }[]> =>
      Object.fromEntries(at.map((k) => [k, [{ char: '<', prob: 0.2 }]]));
    // The separator read `<C`, and fillers after the name read with a vowel among them (A).
    const misread = put(put(TD3_SPECIMEN[0]!, 14, 'C'), 26, 'KAKCSK');
    const doubts = offered(14, 26, 27, 28, 29, 30, 31);
    expect(repairMrz('TD3', [read(misread, 0.6, doubts), read(TD3_SPECIMEN[1]!)])[0]).toBe(TD3_SPECIMEN[0]);
    // Read without that doubt, the same letters stay: they may be a name.
    expect(repairMrz('TD3', [read(misread), read(TD3_SPECIMEN[1]!)])[0]).toBe(misread);
    // A surname's last letter in doubt beside the `<<` read after it stays (K and `<` look alike).
    const names = 'P<UTONOVAK<<JACK'.padEnd(44, '<');
    expect(repairMrz('TD3', [read(names, 0.6, offered(9)), read(TD3_SPECIMEN[1]!)])[0]).toBe(names);
  });

  it("reads the document code's second character as a filler when the recogniser offered one", () => {
    const misread = `PC${TD3_SPECIMEN[0]!.slice(2)}`;
    const doubt = { 1: [{ char: '<', prob: 0.3 }] };
    expect(repairMrz('TD3', [read(misread, 0.9, doubt), read(TD3_SPECIMEN[1]!)])[0]).toBe(TD3_SPECIMEN[0]);
    // A code letter read surely is the issuer's (PD: diplomatic).
    const diplomatic = `PD${TD3_SPECIMEN[0]!.slice(2)}`;
    expect(repairMrz('TD3', [read(diplomatic), read(TD3_SPECIMEN[1]!)])[0]).toBe(diplomatic);
  });

  it('turns a run of five or more of one letter back into fillers where fillers may stand', () => {
    const td1 = [
      'I<UTOD231458907<<<<<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<6',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ];
    const misread = [
      td1[0]!.replace(/<{15}$/, 'K'.repeat(15)),
      td1[1]!,
      td1[2]!.replace(/<{10}$/, 'CCCCCC<<<<'),
    ];
    expect(
      repairMrz(
        'TD1',
        misread.map((line) => read(line)),
      ),
    ).toEqual(td1);
    // Four in a row may be a name's letters.
    const four = td1[2]!.replace(/<{10}$/, 'KKKK<<<<<<');
    expect(repairMrz('TD1', [read(td1[0]!), read(td1[1]!), read(four)])[2]).toBe(four);
  });

  it('forces digits into date fields and letters into codes (O/0, I/1, S/5, B/8)', () => {
    const line2 = TD3_SPECIMEN[1]!.replace('7408122', '74O8I22').replace('UTO', 'UT0');
    const repaired = repairMrz('TD3', [read(TD3_SPECIMEN[0]!), read(line2)]);
    expect(repaired).toEqual(TD3_SPECIMEN);
    expect(validateMrzLines(repaired)?.valid).toBe(true);
  });

  it('takes the recogniser runner-up that makes a failing check digit hold', () => {
    // 7 read for 2 in the birth date (position 18 of line 2); the recogniser's runner-up 2 makes the digit hold.
    const line2 = TD3_SPECIMEN[1]!.replace('7408122', '7408172');
    const repaired = repairMrz('TD3', [
      read(TD3_SPECIMEN[0]!),
      read(line2, 0.9, { 18: [{ char: '2', prob: 0.3 }] }),
    ]);
    expect(repaired[1]).toBe(TD3_SPECIMEN[1]);
  });

  it('makes no blind guess when several changes would satisfy the check digit', () => {
    // 9 read for 4 in the expiry with no runner-up: many single digits could fix it, none is backed.
    const line2 = TD3_SPECIMEN[1]!.replace('1204159', '1209159');
    const repaired = repairMrz('TD3', [read(TD3_SPECIMEN[0]!, 0.99), read(line2, 0.99)]);
    expect(validateMrzLines(repaired)?.valid).toBe(false);
  });

  it('mends a date only into a calendar date: of two equally backed changes, the one giving month 53 is none', () => {
    // 740812 read 740312: the runner-ups 8 (for 3) and 5 (for the month's 0) each make the check digit hold.
    const line2 = TD3_SPECIMEN[1]!.replace('7408122', '7403122');
    const repaired = repairMrz('TD3', [
      read(TD3_SPECIMEN[0]!, 0.99),
      read(line2, 0.99, {
        15: [{ char: '5', prob: 0.45 }],
        16: [{ char: '8', prob: 0.45 }],
      }).map((c, i) => (i === 15 || i === 16 ? { ...c, prob: 0.45 } : c)),
    ]);
    expect(repaired[1]).toBe(TD3_SPECIMEN[1]);
  });

  it('does not overrule a surely read character with a blind look-alike (a forged check digit stays wrong)', () => {
    // Birth date 740812 with a forged check digit 3 (it is 2): 4 → 1 would be the one look-alike that fits it.
    const line2 = TD3_SPECIMEN[1]!.replace('7408122', '7408123');
    const repaired = repairMrz('TD3', [read(TD3_SPECIMEN[0]!, 0.99), read(line2, 0.99)]);
    expect(repaired[1]).toBe(line2);
    expect(validateMrzLines(repaired)?.valid).toBe(false);
  });

  it("reads an unsure first letter as the format's document code (F for P), and leaves a sure one as read", () => {
    const misread = `F${TD3_SPECIMEN[0]!.slice(1)}`;
    const unsure = read(misread, 0.99).map((c, i) => (i === 0 ? { ...c, prob: 0.6 } : c));
    expect(repairMrz('TD3', [unsure, read(TD3_SPECIMEN[1]!, 0.99)])).toEqual(TD3_SPECIMEN);
    expect(repairMrz('TD3', [read(misread, 0.99), read(TD3_SPECIMEN[1]!, 0.99)])[0]).toBe(misread);
  });

  it('keeps a clearly read fictitious country instead of inventing a real one', () => {
    const line1 = TD3_SPECIMEN[0]!.replace('UTO', 'CMW');
    const repaired = repairMrz('TD3', [read(line1, 0.99), read(TD3_SPECIMEN[1]!, 0.99)]);
    expect(repaired[0]!.slice(2, 5)).toBe('CMW');
  });

  it('reads a field end of fillers and 4s (small or blurred print) as fillers when the checks then hold', () => {
    const [first, second] = TD3_SPECIMEN as [string, string];
    // The personal number ZE184226B<<<<< with two of its fillers read as 4.
    const misread = second.slice(0, 37) + '<4<<4' + second.slice(42);
    expect(repairMrz('TD3', [read(first), read(misread)])[1]).toBe(second);
    // An empty personal number read <4<4<<4<<<<<<<: keeping the 4s at weights 3 and 7 (40 in both sums) would hold
    // too, but a filler before a character is no left-justified value, so only the empty field is a reading.
    const head = `${second.slice(0, 28)}${'<'.repeat(14)}0`;
    const empty = `${head}${computeCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))}`;
    const blurred = empty.slice(0, 28) + '<4<4<<4<<<<<<<' + empty.slice(42);
    expect(repairMrz('TD3', [read(first), read(blurred)])[1]).toBe(empty);
    // Optional data under the composite alone: only a 4 after a filler is taken for one.
    const td1 = [
      'I<UTOD231458907<<<<<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<6',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ];
    const optional = td1[1]!.slice(0, 22) + '4' + td1[1]!.slice(23);
    expect(repairMrz('TD1', [read(td1[0]!), read(optional), read(td1[2]!)])[1]).toBe(td1[1]);
  });

  it('reads a field end of five or more 4s as fillers even when the checks hold as read, if fillers hold too', () => {
    const [first, second] = TD3_SPECIMEN as [string, string];
    const sign = (head: string): string =>
      `${head}${computeCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))}`;
    const empty = sign(`${second.slice(0, 28)}${'<'.repeat(14)}0`);
    // Blurred padding read 44<4444444444<: its 4s weigh 200 in both sums, so every check holds as read.
    const blurred = `${empty.slice(0, 28)}44<4444444444<${empty.slice(42)}`;
    expect(validateMrzLines([first, blurred])?.valid).toBe(true);
    expect(repairMrz('TD3', [read(first), read(blurred)])[1]).toBe(empty);
    // A run of 4s its check digit vouches for as data, which fillers would not hold: kept as read.
    const data = sign(`${second.slice(0, 28)}44444<<<<<<<<<${computeCheckDigit('44444')}`);
    expect(repairMrz('TD3', [read(first), read(data)])[1]).toBe(data);
  });

  it('reads a character in a field end as a filler when the recogniser offered one there and the checks then hold', () => {
    const [first, second] = TD3_SPECIMEN as [string, string];
    const head = `${second.slice(0, 28)}${'<'.repeat(14)}0`;
    const empty = `${head}${computeCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))}`;
    // An empty personal number with one filler read as 2, a filler its runner-up. Another filler's runner-up, 4 at
    // weight 7, would make the check hold too, so no single change is clear; only the 2 leaves fillers after a value.
    const misread = `${empty.slice(0, 36)}2${empty.slice(37)}`;
    const offered = read(misread, 0.9, { 31: [{ char: '4', prob: 0.15 }], 36: [{ char: '<', prob: 0.2 }] });
    expect(repairMrz('TD3', [read(first), offered])[1]).toBe(empty);
    // Read surely with no filler offered: the 2 is what is printed, and the check fails.
    expect(repairMrz('TD3', [read(first), read(misread)])[1]).toBe(misread);
  });

  it('leaves a field end of 4s as read when the checks cannot tell which are fillers, or the data holds one', () => {
    const [first, second] = TD3_SPECIMEN as [string, string];
    // 44 at weights 7 and 3 adds 40 to both sums: B44<4< and B<<<4< satisfy the same check digits.
    const misread = second.slice(0, 37) + '44<4<' + second.slice(42);
    expect(repairMrz('TD3', [read(first), read(misread)])[1]).toBe(misread);
    // A filler inside the data before the end: not a value padded on the right, so no end is read as fillers,
    // even where the checks would then hold.
    const data = 'ZE<84226B<<<<<';
    const head = `${second.slice(0, 28)}${data}${computeCheckDigit(data)}`;
    const printed = `${head}${computeCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))}`;
    const inside = printed.slice(0, 38) + '4' + printed.slice(39);
    expect(validateMrzLines([first, printed])?.valid).toBe(true);
    expect(repairMrz('TD3', [read(first), read(inside)])[1]).toBe(inside);
  });
});

describe('showsFillers', () => {
  it('takes a filler pair, a run misread, or three fillers apart for fillers shown', () => {
    // A blurred passport's name line at 540 px: most fillers read as `C`, `S` or `4`, no pair left whole.
    expect(showsFillers('PKPOLKOWALSKA<KWIATKOWSKACCJOANNA<C<C4SCSCSS')).toBe(true);
    expect(showsFillers('L898902C36UTO7408122F1204159ZE184226B<<<<<10')).toBe(true);
    expect(showsFillers('PCUTOERIKSSONCCANNACMARIACCCCCCCCCCCCCCCCCCC')).toBe(true);
    // Print with a stray `<` or two, and the same passport's second line, whose fillers all read as digits.
    expect(showsFillers('PERSONAL<NUMBER<DATE')).toBe(false);
    expect(showsFillers('AA00000000P0L600208411412314544424645444K4C4')).toBe(false);
  });
});
