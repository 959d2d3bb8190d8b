import { describe, expect, it } from 'vitest';
import { movedPrint } from '../../testing/fingerprints.js';
import { syntheticFeatureRecord } from '../synthetic/index.js';
import { computeStarEdges, STAR_EDGES, StarEdgeIndex, starProbe } from './star-edges.js';

/** The upper `share` of a print, turned and moved: a partial, displaced impression of the same finger. */
function partial(seed: number, share: number): ReturnType<typeof syntheticFeatureRecord> {
  const whole = syntheticFeatureRecord(seed);
  const cut = Math.min(...whole.minutiae.map((m) => m.y)) + share * whole.height;
  return movedPrint({ ...whole, minutiae: whole.minutiae.filter((m) => m.y < cut) }, -0.5, 30, 12);
}

describe('star-edge index', () => {
  const index = new StarEdgeIndex();
  for (let id = 0; id < 300; id++) index.add(id, computeStarEdges(syntheticFeatureRecord(4000 + id)));

  it('keeps a few edges per minutia', () => {
    const features = syntheticFeatureRecord(4001);
    const edges = computeStarEdges(features);
    expect(edges.keys.length).toBeGreaterThan(features.minutiae.length);
    expect(edges.keys.length).toBeLessThanOrEqual(STAR_EDGES * features.minutiae.length);
    expect(edges.directions.length).toBe(edges.keys.length);
  });

  it('ranks the finger of a turned, moved, partial impression first', () => {
    for (const id of [12, 150, 299]) expect(index.nearest(starProbe(partial(4000 + id, 0.6)), 3)[0]).toBe(id);
  });

  it("gives each enrollment's vote, highest for the finger", () => {
    const { ids, score } = index.query(starProbe(partial(4000 + 150, 0.6)), 5);
    expect(ids[0]).toBe(150);
    const others = Array.from({ length: 300 }, (_, id) => id).filter((id) => id !== 150);
    expect(Math.max(...others.map(score))).toBeLessThan(score(150));
    expect(ids.map(score)).toEqual([...ids.map(score)].sort((a, b) => b - a));
    expect(score(100_000)).toBe(0);
  });

  it('forgets a removed enrollment', () => {
    const probe = starProbe(partial(4000 + 77, 0.7));
    expect(index.nearest(probe, 1)).toEqual([77]);
    index.remove(77, computeStarEdges(syntheticFeatureRecord(4000 + 77)));
    expect(index.size).toBe(299);
    expect(index.nearest(probe, 300)).not.toContain(77);
  });
});
