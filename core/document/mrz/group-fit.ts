import type { GreyPyramid } from './grey.js';
import { refineLine } from './refine.js';
import { across, type StripLine } from './strips.js';

/**
 * MRZ lines share one type size, direction and spacing: a line far off its group's height or angle was fitted
 * to something else (printed text just above, a rule) and is fitted again from the others' height and angle,
 * and in a three-line zone from where its neighbours' spacing puts it.
 */
export function fitToGroup(pyramid: GreyPyramid, lines: StripLine[]): StripLine[] {
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  // A band reaching past the next line's centre holds that line's text too: it does not tell the type size.
  const nearest = lines.map((line) =>
    Math.min(...lines.filter((o) => o !== line).map((o) => Math.abs(across(line, o)))),
  );
  const single = lines.filter((line, i) => line.height / 2 <= nearest[i]!);
  const heights = (single.length > 0 ? single : lines).map((l) => l.height);
  const angle = median(lines.map((l) => l.angle));
  const first = fitAt(pyramid, lines, nearest, median(heights), angle);
  if (lines.length !== 2 || !first.refused) return shareExtent(first.lines);
  // Two heights that do not agree: the taller band may hold a frame or rule beyond its line; try the shorter.
  const second = fitAt(pyramid, lines, nearest, Math.min(...heights), angle, true);
  return shareExtent((second.refused ? first : second).lines);
}

/**
 * The lines fitted at `height` and `angle` (see fitToGroup); `refused` when a line off them could not be refitted
 * to them. `inner` looks for a refitted line's text in the busiest rows of a band too tall (see refineLine).
 */
function fitAt(
  pyramid: GreyPyramid,
  lines: StripLine[],
  nearest: number[],
  height: number,
  angle: number,
  inner = false,
): { lines: StripLine[]; refused: boolean } {
  let refused = false;
  const fitted = lines.map((line, i) => {
    if (!isOdd(line.height, height) && Math.abs(line.angle - angle) <= 0.01) return line;
    let { cx, cy } = line;
    const others = lines.filter((_, j) => j !== i);
    if (lines.length === 3) {
      // The outer line is one spacing beyond its neighbours; the middle one halfway between them.
      const [a, b] =
        i === 1 ? [others[0]!, others[1]!] : i === 0 ? [others[1]!, others[0]!] : [others[0]!, others[1]!];
      cx = i === 1 ? (a.cx + b.cx) / 2 : 2 * b.cx - a.cx;
      cy = i === 1 ? (a.cy + b.cy) / 2 : 2 * b.cy - a.cy;
    } else if (line.height / 2 > nearest[i]!) {
      // Its band runs from its neighbour's far edge to its own: its text is at the end away from the neighbour.
      const other = others[0]!;
      const shift = (Math.sign(across(other, line)) * (line.height - height)) / 2;
      cx -= shift * Math.sin(angle);
      cy += shift * Math.cos(angle);
    }
    // Placed afresh: its own fit's curve no longer tells where its text is.
    const { bend: _, ...straight } = line;
    const placed = { ...straight, cx, cy, angle, height };
    const refit = refineLine(pyramid, placed, true, inner);
    // Fitted onto a neighbour's text, or to a band no more the group's than its own (the group's height, too tall,
    // took a neighbour or a rule in): the line stays where its neighbours place it, or as it was fitted alone.
    const onNeighbour = others.some((o) => Math.abs(across(refit, o)) < Math.min(refit.height, o.height) / 2);
    if (!onNeighbour && !isOdd(refit.height, height)) return refit;
    refused = true;
    return cx !== line.cx || cy !== line.cy ? placed : line;
  });
  return { lines: fitted, refused };
}

/** Whether a line's text height is far off its group's. */
function isOdd(lineHeight: number, groupHeight: number): boolean {
  return lineHeight < groupHeight * 0.8 || lineHeight > groupHeight * 1.25;
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
