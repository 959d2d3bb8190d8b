/**
 * The `count` enrollments with the strongest votes, best first: each enrollment `id` has `bins` rotation bins at
 * votes[id * bins ..] and scores its best bin (only collisions that agree on one turn of the finger add up). Ties go
 * to the lower id. Shared by the first-stage indexes that vote on rotations.
 */
export function bestByRotation(
  votes: Float32Array,
  members: ReadonlySet<number>,
  bins: number,
  count: number,
): number[] {
  const ids = new Int32Array(members.size);
  const scores = new Float32Array(members.size);
  let voted = 0;
  for (const id of members) {
    let best = 0;
    const base = id * bins;
    for (let b = 0; b < bins; b++) if (votes[base + b]! > best) best = votes[base + b]!;
    if (best <= 0) continue;
    ids[voted] = id;
    scores[voted++] = best;
  }
  // The count-th best score (a typed-array sort of the scores), then only what reaches it is ordered.
  const want = Math.max(0, Math.min(count, voted));
  if (want === 0) return [];
  const floor = scores.slice(0, voted).sort()[voted - want]!;
  const kept: { id: number; score: number }[] = [];
  for (let i = 0; i < voted; i++) if (scores[i]! >= floor) kept.push({ id: ids[i]!, score: scores[i]! });
  kept.sort((a, b) => b.score - a.score || a.id - b.id);
  return kept.slice(0, want).map((k) => k.id);
}
