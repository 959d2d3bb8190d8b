import { describe, expect, it } from 'vitest';
import { voteLines } from './vote.js';

const reading = (text: string, prob = 0.9) => Array.from(text, (char) => ({ char, prob, alternatives: [] }));

describe('voteLines', () => {
  it('keeps the character most readings agree on, the others as runner-ups', () => {
    const voted = voteLines([reading('A1C'), reading('A7C'), reading('A1C', 0.6)]);
    expect(voted.map((c) => c.char).join('')).toBe('A1C');
    expect(voted[1]?.alternatives.map((a) => a.char)).toEqual(['7']);
  });

  it('keeps the best letter among the runner-ups when digits outrank it', () => {
    const cut = (char: string, prob: number, alternatives: [string, number][]) => [
      { char, prob, alternatives: alternatives.map(([c, p]) => ({ char: c, prob: p })) },
    ];
    const voted = voteLines([
      cut('9', 0.4, [
        ['2', 0.3],
        ['0', 0.2],
      ]),
      cut('0', 0.3, [
        ['R', 0.2],
        ['2', 0.2],
      ]),
      cut('8', 0.5, [['6', 0.3]]),
    ]);
    expect(voted[0]?.char).toBe('2');
    expect(voted[0]?.alternatives.map((a) => a.char)).toContain('R');
  });

  it('lets one sure reading outweigh a hesitant one', () => {
    const voted = voteLines([reading('X', 0.95), reading('K', 0.3)]);
    expect(voted[0]?.char).toBe('X');
    expect(voteLines([])).toEqual([]);
  });

  it('counts a reading as many times as its weight', () => {
    const cuts = [reading('8', 0.9), reading('8', 0.9)];
    expect(voteLines([...cuts, reading('B', 0.95)])[0]?.char).toBe('8');
    const voted = voteLines([...cuts, reading('B', 0.95)], [1, 1, 2]);
    expect(voted[0]?.char).toBe('B');
    expect(voted[0]?.prob).toBeCloseTo((2 * 0.95) / 4);
  });
});
