import { describe, expect, it } from 'vitest';
import { createPrng } from '../../math/prng.js';
import { PostingLists } from './posting-lists.js';
import { DIRECTION_SECTORS, POSTING_DIRECTION_LEVELS, ROTATION_BINS, sectorOf } from './rotation-votes.js';

/** Random postings over `keys` keys: slots ascending, every direction, gaps up to `jump` now and then. */
function randomPostings(
  keys: number,
  count: number,
  seed: number,
  jump = 400_000,
): { key: number; level: number; slot: number }[] {
  const { next } = createPrng(seed);
  const out: { key: number; level: number; slot: number }[] = [];
  let slot = 0;
  for (let i = 0; i < count; i++) {
    const r = next();
    slot += r < 0.3 ? 0 : r < 0.998 ? Math.floor(next() * 40) : Math.floor(next() * jump);
    out.push({ key: Math.floor(next() * keys), level: Math.floor(next() * POSTING_DIRECTION_LEVELS), slot });
  }
  return out;
}

function listed(lists: PostingLists, key: number, sector: number): [number, number][] {
  const out: [number, number][] = [];
  const b = lists.bucket(key, sector);
  if (b >= 0) lists.forEach(b, (slot, level) => out.push([slot, level]));
  return out;
}

describe('posting lists', () => {
  const postings = randomPostings(50, 60_000, 11);
  const lists = new PostingLists(50);
  for (const p of postings) lists.add(p.key, p.level, p.slot);

  it('give back every posting of a bucket in the order it came, across many blocks and pages', () => {
    for (let key = 0; key < 50; key++) {
      for (let sector = 0; sector < DIRECTION_SECTORS; sector++) {
        const expected = postings
          .filter((p) => p.key === key && sectorOf(p.level) === sector)
          .map((p) => [p.slot, p.level]);
        expect(listed(lists, key, sector)).toEqual(expected);
        expect(lists.size(lists.bucket(key, sector))).toBe(expected.length);
      }
    }
    expect(lists.bytes()).toBeGreaterThan(2 ** 20);
    expect(lists.bucket(49, 0)).toBeGreaterThanOrEqual(0);
    expect(new PostingLists(50).bucket(3, 0)).toBe(-1);
  });

  it('vote on the turn between the probe direction and each posting, as a plain loop over the postings does', () => {
    const postings = randomPostings(50, 20_000, 12, 2000);
    const lists = new PostingLists(50);
    for (const p of postings) lists.add(p.key, p.level, p.slot);
    const slots = postings[postings.length - 1]!.slot + 1;
    const votes = new Float32Array(slots * ROTATION_BINS);
    const expected = new Float32Array(slots * ROTATION_BINS);
    for (const [key, sector, direction, weight] of [
      [3, 2, 17, 1.5],
      [3, 7, 60, 0.25],
      [41, 0, 0, 2],
    ] as const) {
      lists.castVotes(votes, lists.bucket(key, sector), direction, weight);
      for (const [slot, level] of listed(lists, key, sector)) {
        const turn = (((level - direction + 64) % 64) * ROTATION_BINS) / POSTING_DIRECTION_LEVELS;
        const bin = Math.floor(turn);
        expected[slot * ROTATION_BINS + bin]! += weight * (1 - (turn - bin));
        expected[slot * ROTATION_BINS + ((bin + 1) % ROTATION_BINS)]! += weight * (turn - bin);
      }
    }
    let differ = 0;
    for (let i = 0; i < votes.length; i++) if (votes[i] !== expected[i]) differ++;
    expect(differ).toBe(0);
    expect(votes.some((v) => v > 0)).toBe(true);
  });

  it('count discounted postings out and drop them when renumbered, keeping the order of the others', () => {
    const small = new PostingLists(4);
    const held = randomPostings(4, 3000, 5);
    for (const p of held) small.add(p.key, p.level, p.slot);
    const released = new Set(held.filter((_, i) => i % 3 === 0).map((p) => p.slot));
    for (const p of held) if (released.has(p.slot)) small.discount(p.key, p.level);
    const renumber = new Int32Array(held[held.length - 1]!.slot + 1).fill(-1);
    const kept = [...new Set(held.map((p) => p.slot))].filter((s) => !released.has(s));
    kept.forEach((slot, i) => (renumber[slot] = i));
    const next = small.renumbered(renumber);
    for (let key = 0; key < 4; key++) {
      for (let sector = 0; sector < DIRECTION_SECTORS; sector++) {
        const expected = held
          .filter((p) => p.key === key && sectorOf(p.level) === sector && !released.has(p.slot))
          .map((p) => [renumber[p.slot]!, p.level]);
        expect(small.size(small.bucket(key, sector))).toBe(expected.length);
        expect(listed(next, key, sector)).toEqual(expected);
        expect(next.size(next.bucket(key, sector))).toBe(expected.length);
      }
    }
  });

  it('refuses postings out of slot order', () => {
    const small = new PostingLists(1);
    small.add(0, 5, 10);
    small.add(0, 40, 3);
    expect(() => {
      small.add(0, 6, 9);
    }).toThrow(/slot order/);
  });
});
