import type { GreyPyramid } from './grey.js';
import { refineLine } from './refine.js';
import type { StripLine } from './strips.js';

/**
 * MRZ lines share one type size, direction and spacing: a line far off its group's height or angle was fitted
 * to something else (printed text just above, a rule) and is fitted again from the others' height and angle,
 * and in a three-line zone from where its neighbours' spacing puts it.
 */
export function fitToGroup(pyramid: GreyPyramid, lines: StripLine[]): StripLine[] {
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const height = median(lines.map((l) => l.height));
  const angle = median(lines.map((l) => l.angle));
  const fitted = lines.map((line, i) => {
    const odd =
      line.height < height * 0.8 || line.height > height * 1.25 || Math.abs(line.angle - angle) > 0.01;
    if (!odd) return line;
    let { cx, cy } = line;
    const others = lines.filter((_, j) => j !== i);
    if (lines.length === 3) {
      // The outer line is one spacing beyond its neighbours; the middle one halfway between them.
      const [a, b] =
        i === 1 ? [others[0]!, others[1]!] : i === 0 ? [others[1]!, others[0]!] : [others[0]!, others[1]!];
      cx = i === 1 ? (a.cx + b.cx) / 2 : 2 * b.cx - a.cx;
      cy = i === 1 ? (a.cy + b.cy) / 2 : 2 * b.cy - a.cy;
    }
    return refineLine(pyramid, { ...line, cx, cy, angle, height }, true);
  });
  return shareExtent(fitted);
}

/**
 * Share of a line's length it may be stretched by each way to reach its group's extent: up to its own length,
 * as glare or a faint print can hide half a line's characters (its fillers first) while its neighbours read whole.
 */
const MAX_STRETCH = 1;

/**
 * MRZ lines are equally long and start together: a line whose end was cut short (a character joined to a rule
 * or lost in glare) is stretched to where its neighbours end, by at most `MAX_STRETCH` of its length.
 */
function shareExtent(lines: StripLine[]): StripLine[] {
  const angle = lines.reduce((s, l) => s + l.angle, 0) / lines.length;
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const along = lines.map((l) => l.cx * ux + l.cy * uy);
  const lo = Math.min(...lines.map((l, i) => along[i]! - l.length / 2));
  const hi = Math.max(...lines.map((l, i) => along[i]! + l.length / 2));
  return lines.map((l, i) => {
    const start = Math.max(lo, along[i]! - l.length / 2 - l.length * MAX_STRETCH);
    const end = Math.min(hi, along[i]! + l.length / 2 + l.length * MAX_STRETCH);
    const shift = (start + end) / 2 - along[i]!;
    return { ...l, cx: l.cx + shift * ux, cy: l.cy + shift * uy, length: end - start };
  });
}
