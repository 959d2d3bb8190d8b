import { describe, expect, it } from 'vitest';
import { movedPrint } from '../../testing/fingerprints.js';
import { extractFeatures } from '../extract/index.js';
import { syntheticFeatureRecord, syntheticFingerprint } from '../synthetic/index.js';
import { computeCylinders, decodeCylinders, encodeCylinders } from './cylinders.js';
import { cylinderHashes, HASH_TABLES, MinutiaHashIndex } from './minutia-hashes.js';

/** An index of synthetic feature records 0 .. size-1 (id = seed). */
function galleryIndex(size: number): MinutiaHashIndex {
  const index = new MinutiaHashIndex();
  for (let seed = 0; seed < size; seed++) index.add(seed, computeCylinders(syntheticFeatureRecord(seed)));
  return index;
}

describe('minutia hash index', () => {
  it('hashes every cylinder into every table, the same after a storage round trip', () => {
    const cylinders = computeCylinders(syntheticFeatureRecord(8));
    const keys = cylinderHashes(cylinders);
    expect(keys.length).toBe(cylinders.n * HASH_TABLES);
    expect(Array.from(cylinderHashes(decodeCylinders(encodeCylinders(cylinders))))).toEqual(Array.from(keys));
  });

  it('puts a turned and moved print first among 400 synthetic records', () => {
    const index = galleryIndex(400);
    for (const seed of [17, 123, 388]) {
      const probe = movedPrint(syntheticFeatureRecord(seed), 0.5, 30, -20);
      expect(index.nearest(computeCylinders(probe), 5)[0]).toBe(seed);
    }
  });

  it('finds a print turned by up to 45 degrees, whichever direction sectors its minutiae cross into', () => {
    const index = galleryIndex(400);
    for (const [seed, angle] of [
      [61, 0.78],
      [62, -0.78],
      [63, 0.3],
      [64, -0.45],
    ] as const) {
      const probe = movedPrint(syntheticFeatureRecord(seed), angle, -25, 10);
      expect(index.nearest(computeCylinders(probe), 3)[0]).toBe(seed);
    }
  });

  it('leaves a print turned upside down to the other indexes: its minutiae point into other sectors', () => {
    const index = galleryIndex(400);
    const probe = movedPrint(syntheticFeatureRecord(71), Math.PI, 0, 0);
    expect(index.nearest(computeCylinders(probe), 20)).not.toContain(71);
  });

  it('keeps another impression of a finger (distorted, partial) among the candidates', () => {
    const index = galleryIndex(400);
    const seeds = [41, 42, 43, 44, 45, 46];
    seeds.forEach((seed, i) => {
      index.add(1000 + i, computeCylinders(extractFeatures(syntheticFingerprint(seed, 0))));
    });
    let found = 0;
    seeds.forEach((seed, i) => {
      const probe = computeCylinders(extractFeatures(syntheticFingerprint(seed, 1)));
      if (index.nearest(probe, 20).includes(1000 + i)) found++;
    });
    expect(found).toBeGreaterThanOrEqual(5);
  });

  it('keeps a small first impression among the candidates of a fuller impression of its finger', () => {
    const index = galleryIndex(400);
    let found = 0;
    for (const seed of [5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008]) {
      const full = syntheticFeatureRecord(seed);
      // The enrollment shows only the 18 minutiae nearest the print's centre (a small or partial first impression).
      const cx = full.minutiae.reduce((s, m) => s + m.x, 0) / full.minutiae.length;
      const cy = full.minutiae.reduce((s, m) => s + m.y, 0) / full.minutiae.length;
      const near = [...full.minutiae].sort(
        (a, b) => (a.x - cx) ** 2 + (a.y - cy) ** 2 - ((b.x - cx) ** 2 + (b.y - cy) ** 2),
      );
      index.add(seed, computeCylinders({ ...full, minutiae: near.slice(0, 18) }));
      if (index.nearest(computeCylinders(movedPrint(full, 0.4, 20, -15)), 3).includes(seed)) found++;
    }
    expect(found).toBe(8);
  });

  it('forgets a removed enrollment and takes it back with new cylinders', () => {
    const index = galleryIndex(50);
    const first = computeCylinders(syntheticFeatureRecord(7));
    expect(index.size).toBe(50);
    index.remove(7, first);
    expect(index.has(7)).toBe(false);
    expect(index.size).toBe(49);
    expect(index.nearest(first, 50)).not.toContain(7);
    expect(index.nearest(first, 50).length).toBeGreaterThan(10);
    const replacement = computeCylinders(syntheticFeatureRecord(9999));
    index.add(7, replacement);
    expect(index.nearest(replacement, 1)).toEqual([7]);
    expect(index.nearest(first, 3)).not.toContain(7);
  });
});
