import { textHeightOf, type LineBand } from './locate.js';

/**
 * Groups of 2–3 consecutive bands that look like one MRZ: ends aligned (both, or one when part of a line is
 * hidden), similar height, evenly spaced. Bottom-most first, longer groups first at equal position; the zone
 * search ranks them again by MRZ-likeness.
 */
export function groupMrzBands(bands: readonly LineBand[]): LineBand[][] {
  const groups: LineBand[][] = [];
  for (let i = 0; i < bands.length; i++) {
    const group = [bands[i]!];
    for (let j = i + 1; j < bands.length && group.length < 3; j++) {
      const last = group[group.length - 1]!;
      const next = bands[j]!;
      // Spaced by the text's height, not the box's: a line askew (perspective leaves some so) has a taller box.
      const h = Math.max(textHeightOf(last), textHeightOf(next));
      const gap = next.cy - last.cy;
      const slack = 0.05 * Math.max(last.width, next.width) + 2 * h;
      const left = Math.abs(next.x - last.x) < slack;
      const right = Math.abs(next.x + next.width - last.x - last.width) < slack;
      const ratio = Math.min(next.width, last.width) / Math.max(next.width, last.width);
      // MRZ lines are equally long: both ends align, or one does when glare or shadow hides part of a line.
      const similar =
        ((left && right && ratio > 0.75) || ((left || right) && ratio > 0.4)) &&
        next.height > 0.6 * last.height &&
        next.height < 1.66 * last.height &&
        gap > 0.9 * h &&
        gap < 3.2 * h;
      if (similar) group.push(next);
      else if (gap > 3.2 * h) break;
    }
    for (let k = 2; k <= group.length; k++) groups.push(group.slice(0, k));
  }
  return groups.sort((a, b) => {
    const bottom = (g: LineBand[]): number => g[g.length - 1]!.cy;
    return bottom(b) - bottom(a) || b.length - a.length;
  });
}
