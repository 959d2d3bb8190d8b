import type { CandidateChar } from './repair.js';

/** A recognised character with where it sits along the line (any unit, e.g. CTC time steps). */
export interface PlacedChar extends CandidateChar {
  frame: number;
}

/** Probability given to a character put back where the recogniser left a gap. */
const INSERTED_PROB = 0.05;

/** Gap, in pitches, from which a character stands apart: one was left out beside it, or it is ink off the line. */
const APART = 1.5;

/**
 * Bring a recognised line to the format's fixed length. OCR-B is fixed-pitch, so a dropped character
 * leaves a gap of about two pitches between its neighbours: fill the widest gaps (with the filler `<` when
 * the gap lies within a filler run, else a low-probability guess the check-digit repair may overrule).
 * When there are too many, an end character other than a filler standing apart from the rest is dropped first
 * (an edge, a rule or a mark beyond the line's end, read as a letter), then the least probable characters.
 */
export function fitLineLength(chars: readonly PlacedChar[], length: number): CandidateChar[] {
  const line = [...chars];
  const spacing = line.length > length ? pitchOf(line) : 0;
  while (line.length > length) {
    const n = line.length;
    // A filler apart at an end is more likely print with one left out beside it than ink off the line.
    const head = n >= 3 && line[0]!.char !== '<' ? (line[1]!.frame - line[0]!.frame) / spacing : 0;
    const tail =
      n >= 3 && line[n - 1]!.char !== '<' ? (line[n - 1]!.frame - line[n - 2]!.frame) / spacing : 0;
    if (Math.max(head, tail) >= APART) {
      line.splice(head >= tail ? 0 : n - 1, 1);
      continue;
    }
    let weakest = 0;
    for (let i = 1; i < line.length; i++) if ((line[i]?.prob ?? 1) < (line[weakest]?.prob ?? 1)) weakest = i;
    line.splice(weakest, 1);
  }
  while (line.length < length && line.length >= 2) {
    const pitch = pitchOf(line);
    let widest = -1;
    let widestRatio = 0;
    for (let i = 1; i < line.length; i++) {
      const ratio = ((line[i]?.frame ?? 0) - (line[i - 1]?.frame ?? 0)) / pitch;
      if (ratio > widestRatio) {
        widestRatio = ratio;
        widest = i;
      }
    }
    // No gap wide enough: the missing characters are at an end; fillers end most MRZ lines.
    if (widestRatio < 1.5) {
      const last = line[line.length - 1]!;
      line.push({ char: '<', prob: INSERTED_PROB, alternatives: [], frame: last.frame + pitch });
      continue;
    }
    const before = line[widest - 1]!;
    const after = line[widest]!;
    const filler = before.char === '<' || after.char === '<';
    line.splice(widest, 0, {
      char: filler ? '<' : after.char,
      prob: INSERTED_PROB,
      alternatives: filler ? [] : [{ char: before.char, prob: INSERTED_PROB / 2 }],
      frame: (before.frame + after.frame) / 2,
    });
  }
  return line.map(({ char, prob, alternatives }) => ({ char, prob, alternatives }));
}

/** Characters a pitch is measured over: places are whole time steps, and one step is a large share of a pitch. */
const PITCH_SPAN = 4;

/**
 * The line's character pitch: the median distance over `PITCH_SPAN` neighbours, divided by it. A character about
 * 2.5 steps wide alternates gaps of 2 and 3, whose median is either; over four it is 10 steps, within a step. A
 * short line (a few characters) has too few spans to outvote one across a gap: its gaps are taken one by one.
 */
function pitchOf(line: readonly PlacedChar[]): number {
  const span = line.length >= 3 * PITCH_SPAN ? PITCH_SPAN : 1;
  const gaps: number[] = [];
  for (let i = span; i < line.length; i++)
    gaps.push(((line[i]?.frame ?? 0) - (line[i - span]?.frame ?? 0)) / span);
  gaps.sort((a, b) => a - b);
  return Math.max(1e-6, gaps[Math.floor(gaps.length / 2)] ?? 1);
}
