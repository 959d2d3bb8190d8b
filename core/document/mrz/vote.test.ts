import { describe, expect, it } from 'vitest';
import { voteLines } from './vote.js';

const reading = (text: string, prob = 0.9) => Array.from(text, (char) => ({ char, prob, alternatives: [] }));

describe('voteLines', () => {
  it('keeps the character most readings agree on, the others as runner-ups', () => {
    const voted = voteLines([reading('A1C'), reading('A7C'), reading('A1C', 0.6)]);
    expect(voted.map((c) => c.char).join('')).toBe('A1C');
    expect(voted[1]?.alternatives.map((a) => a.char)).toEqual(['7']);
  });

  it('lets one sure reading outweigh a hesitant one', () => {
    const voted = voteLines([reading('X', 0.95), reading('K', 0.3)]);
    expect(voted[0]?.char).toBe('X');
    expect(voteLines([])).toEqual([]);
  });
});
