import { describe, expect, it } from 'vitest';
import { movedPrint } from '../../testing/fingerprints.js';
import { syntheticFeatureRecord } from '../synthetic/index.js';
import { computeCylinders, cylinderSimilarity, type Cylinders } from './cylinders.js';
import { GalleryIndex } from './gallery-index.js';
import { starProbe } from './star-edges.js';

const cylinders = new Map<number, Cylinders>();
const cylindersOf = (seed: number): Cylinders => {
  let c = cylinders.get(seed);
  if (!c) cylinders.set(seed, (c = computeCylinders(syntheticFeatureRecord(seed))));
  return c;
};
const mobile = (id: number): string => `+4479100${String(id).padStart(5, '0')}`;
const probes = [3, 77, 150, 420, 556].map((seed) => movedPrint(syntheticFeatureRecord(seed), 0.4, 20, -10));

/** Everything the search reads of an index for these probes. */
function answers(index: GalleryIndex, ids: number[]): unknown {
  return probes.map((probe) => {
    const c = computeCylinders(probe);
    const stars = index.stars.query(starProbe(probe), 30);
    return {
      hashes: index.hashes.nearest(c, 30),
      stars: stars.ids,
      votes: ids.map(stars.score),
      similarity: ids.map((id) => index.similarity(c, id)),
      mobiles: ids.map((id) => index.mobile(id)),
    };
  });
}

describe('gallery index', () => {
  it('compares a probe with the held cylinders as with the cylinders themselves', () => {
    const index = new GalleryIndex();
    for (let id = 0; id < 200; id++) index.put(id, mobile(id), cylindersOf(id));
    const probe = computeCylinders(probes[1]!);
    for (const id of [0, 77, 199])
      expect(index.similarity(probe, id)).toBe(cylinderSimilarity(probe, cylindersOf(id)));
    expect(index.similarity(probe, 200)).toBeUndefined();
    expect(index.mobile(77)).toBe(mobile(77));
    expect(index.hashes.nearest(probe, 1)).toEqual([77]);
  });

  it('answers after deletes and re-enrollments as an index built afresh from what it holds', () => {
    const index = new GalleryIndex();
    for (let id = 0; id < 600; id++) index.put(id, mobile(id), cylindersOf(id));
    const deleted = Array.from({ length: 600 }, (_, id) => id).filter((id) => id % 3 === 1);
    for (const id of deleted) index.delete(id);
    // Re-enrolled with another print (the ids keep their numbers; the prints change).
    const again = deleted.slice(0, 40).concat([0, 150]);
    for (const id of again) index.put(id, mobile(id), cylindersOf(1000 + id));
    const held = Array.from({ length: 600 }, (_, id) => id).filter(
      (id) => !deleted.includes(id) && !again.includes(id),
    );
    const fresh = new GalleryIndex();
    for (const id of held) fresh.put(id, mobile(id), cylindersOf(id));
    for (const id of again) fresh.put(id, mobile(id), cylindersOf(1000 + id));
    const ids = Array.from({ length: 600 }, (_, id) => id);
    expect(index.size).toBe(fresh.size);
    expect(answers(index, ids)).toEqual(answers(fresh, ids));
    index.compact();
    expect(answers(index, ids)).toEqual(answers(fresh, ids));
    expect(index.mobile(deleted[50]!)).toBeUndefined();
    expect(index.hashes.nearest(computeCylinders(probes[4]!), 5)).not.toContain(556);
  });

  it('holds 3,000 enrollments of 40-odd minutiae in 30 MB, fixed tables included', () => {
    const index = new GalleryIndex();
    for (let id = 0; id < 3000; id++) index.put(id, mobile(id), cylindersOf(id));
    index.compact();
    const minutiae = Array.from({ length: 3000 }, (_, id) => syntheticFeatureRecord(id).minutiae.length);
    expect(minutiae.reduce((a, b) => a + b) / 3000).toBeGreaterThan(38);
    expect(index.bytes()).toBeLessThan(30 * 2 ** 20);
  });
});
