import type { GreyPyramid } from './grey.js';
import { dilate, erode, type Raster } from './morphology.js';
import { solveLinear } from '../features/geometry/homography.js';
import { sampleRotatedRect } from './sample.js';
import { stripScale, valueAt, type Parabola, type StripLine, type StripScale } from './strips.js';

/** Share of the busiest row's ink edges a row needs to belong to the text band. */
const ROW_EDGES = 0.2;
/** Tallest band (times the expected text height) taken for a line's text: more took in a neighbour, a frame or a rule. */
const MAX_BAND = 1.8;
/** Gap between characters (times the text height) beyond which the line has ended. */
const END_GAP = 1;

/** Ink edges per row between columns x0 and x1: characters cross a row many times, a rule or a margin once. */
function edgeProfile(ink: Raster, x0: number, x1: number): Float64Array {
  const rows = new Float64Array(ink.height);
  for (let y = 0; y < ink.height; y++) {
    let previous = 0;
    for (let x = x0; x < x1; x++) {
      const v = ink.data[y * ink.width + x]!;
      if (v !== previous) rows[y]!++;
      previous = v;
    }
  }
  return rows;
}

/** Relative darkness (0–255 of the brightest pixel near it) from which a pixel is ink wherever print is crisp. */
const INK_CONTRAST = 38;
/** Least relative darkness taken for ink where the print near it is faint (glare, a washed-out print). */
const FAINT_INK = 15;

/** 255 over a background brightness (never under 48): relative darkness without a division per pixel. */
const SCALE = Float32Array.from({ length: 256 }, (_, b) => 255 / Math.max(b, 48));

/** A strip's ink (1) and paper (0), and the same without print lighter than half the darkest near it. */
interface StripInk {
  ink: Raster;
  /**
   * Ink at least half as dark as the darkest print within twice the window along the line: a stamp or a guilloche
   * printed across the line (lighter than its black characters) falls away, where in `ink` it joins them.
   */
  solid: Raster;
  /**
   * Ink against the strip closed (brightest, then darkest, within `size`) rather than its brightest: the edge of a
   * shadow across the line stays where it is, so the shadowed paper beside it is paper, not a dark bar joined to the
   * characters there. Made when asked for (a line that ends at such a bar).
   */
  even: () => Raster;
}

/**
 * Ink of a strip (1) and paper (0): darker than the brightest pixel within `size` of it by half the darkest
 * print within twice `size` along the line, between `FAINT_INK` and `INK_CONTRAST`. A shadow or a lighting edge
 * across the strip leaves its print readable and its paper paper, and print that glare or a dull print leaves
 * under `INK_CONTRAST` (characters of thin strokes first) is still ink: its ends are found where it ends.
 */
function inkOf(strip: Raster, size: number): StripInk {
  const { width, height } = strip;
  const bright = dilate(strip, size, size);
  const bg = bright.data;
  const dark = new Uint8Array(strip.data.length);
  const peaks = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    for (let i = y * width, x = 0; x < width; i++, x++) {
      const b = bg[i]!;
      const d = b - strip.data[i]!;
      const v = d <= 0 ? 0 : (d * SCALE[b]!) | 0;
      dark[i] = v;
      if (v > peaks[x]!) peaks[x] = v;
    }
  }
  const near = dilate({ width, height: 1, data: peaks }, 4 * size + 1, 1).data;
  const halves = near.map((peak) => Math.max(FAINT_INK, peak >> 1));
  const thresholds = halves.map((half) => Math.min(INK_CONTRAST, half));
  const ink = new Uint8Array(dark.length);
  const solid = new Uint8Array(dark.length);
  for (let y = 0; y < height; y++) {
    for (let i = y * width, x = 0; x < width; i++, x++) {
      ink[i] = dark[i]! >= thresholds[x]! ? 1 : 0;
      solid[i] = dark[i]! >= halves[x]! ? 1 : 0;
    }
  }
  const even = (): Raster => {
    const closed = erode(bright, size, size).data;
    const data = new Uint8Array(dark.length);
    for (let y = 0; y < height; y++) {
      for (let i = y * width, x = 0; x < width; i++, x++) {
        const b = closed[i]!;
        const d = b - strip.data[i]!;
        data[i] = d > 0 && ((d * SCALE[b]!) | 0) >= thresholds[x]! ? 1 : 0;
      }
    }
    return { width, height, data };
  };
  return { ink: { width, height, data: ink }, solid: { width, height, data: solid }, even };
}

/** Tallest piece of ink (times the text height) taken for characters: two of neighbouring lines run together. */
const MAX_PIECE = 2.6;

/**
 * Columns covered by characters of the band `top`..`bottom`: connected pieces of ink across the band no taller
 * than `MAX_PIECE` text heights. A box's side, a rule touching the line, a page edge or a picture beyond the
 * line's end run on much further (or across the whole line) and are not characters; `bars`, when given, gets
 * the columns of those taller than `MAX_PIECE`.
 */
function characterColumns(ink: Raster, top: number, bottom: number, bars?: Uint8Array): Uint8Array {
  const { width, height, data } = ink;
  const band = bottom + 1 - top;
  const label = new Uint8Array(width * height);
  const columns = new Uint8Array(width);
  const stack: number[] = [];
  for (let start = top * width; start < (bottom + 1) * width; start++) {
    if (data[start] !== 1 || label[start]) continue;
    label[start] = 1;
    stack.push(start);
    let x0 = width;
    let x1 = 0;
    let y0 = height;
    let y1 = 0;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
        if (q >= 0 && q < data.length && data[q] === 1 && !label[q]) {
          label[q] = 1;
          stack.push(q);
        }
      }
    }
    // A character, or two of neighbouring lines run together by blur; not a box's side or a page edge.
    const short = y1 + 1 - y0 <= band * MAX_PIECE && y1 + 1 - y0 >= band * 0.25;
    const overlap = Math.min(y1, bottom) + 1 - Math.max(y0, top);
    if (short && overlap >= band * 0.25) columns.fill(1, x0, x1 + 1);
    else if (y1 + 1 - y0 > band * MAX_PIECE) bars?.fill(1, x0, x1 + 1);
  }
  return columns;
}

/** The text band in a row profile: the busiest stretch about `text` rows tall near the middle, then its rows. */
function bandOf(rows: Float64Array, text: number, share = ROW_EDGES): { top: number; bottom: number } | null {
  const height = rows.length;
  const half = Math.max(1, Math.round(text * 0.25));
  const smooth = (y: number): number => {
    let sum = 0;
    for (let j = Math.max(0, y - half); j <= Math.min(height - 1, y + half); j++) sum += rows[j]!;
    return sum;
  };
  let peak = Math.floor(height / 2);
  for (let y = Math.floor(height / 4); y < Math.ceil((height * 3) / 4); y++)
    if (smooth(y) > smooth(peak)) peak = y;
  let max = 0;
  for (let y = Math.max(0, peak - half); y <= Math.min(height - 1, peak + half); y++)
    max = Math.max(max, rows[y]!);
  if (max < 6) return null;
  let top = peak;
  while (top > 0 && rows[top - 1]! >= max * share) top--;
  let bottom = peak;
  while (bottom < height - 1 && rows[bottom + 1]! >= max * share) bottom++;
  return { top, bottom };
}

/**
 * How many rows the right half's profile sits below the left half's (within ±`range`): the shift that best
 * correlates them. Text, rules and neighbours all drift together when the line is a little askew.
 */
function profileShift(left: Float64Array, right: Float64Array, range: number): number {
  let best = 0;
  let bestScore = -1;
  for (let shift = -range; shift <= range; shift++) {
    let score = 0;
    for (let y = 0; y < left.length; y++) score += left[y]! * (right[y + shift] ?? 0);
    if (score > bestScore * 1.0001) {
      bestScore = score;
      best = shift;
    }
  }
  return best;
}

/** The line's surroundings as ink (see inkOf), cut level at `scale` (see stripScale). */
function sample(
  pyramid: GreyPyramid,
  scale: StripScale,
  line: StripLine,
  width: number,
  height: number,
): StripInk {
  const { k, level, fine } = scale;
  const strip = sampleRotatedRect(pyramid.level(k), {
    cx: (line.cx + 0.5) * level - 0.5,
    cy: (line.cy + 0.5) * level - 0.5,
    width,
    height,
    angle: line.angle,
    step: 1 / fine,
  });
  return inkOf(strip, Math.max(3, Math.round(line.height * level * fine * 0.8)));
}

/**
 * Fit a line to its text at full resolution. The working copy's estimate may be a few pixels off, a fraction
 * of a degree askew (a text height's drift along a long line) or joined to a rule or a box. Around it, a strip
 * three text heights tall and 15% longer each way is cut; the shift between the row profiles of the line's left and
 * right halves corrects the angle; cut again, the band's rows give centre and height, and the run of characters
 * through the middle that no gap wider than `END_GAP` text heights interrupts gives the ends (see
 * characterColumns). `keepAngle` trusts
 * the given angle (a group's consensus); `inner` takes a band too tall by its busiest rows (half the busiest row's
 * edges), the text beside a frame or rule its band took in.
 */
export function refineLine(
  pyramid: GreyPyramid,
  line: StripLine,
  keepAngle = false,
  inner = false,
): StripLine {
  const { bend: _, ...straight } = line;
  let current = refineOnce(pyramid, straight, keepAngle, inner);
  // Characters ran on to the strip's end: the working copy found the line in part (a shadow, a glare spot).
  for (let pass = 0; pass < 3 && (current.start || current.end); pass++) {
    const next = refineOnce(pyramid, grow(current.line, current.start, current.end), true);
    if (!next.fitted) break;
    current = next;
  }
  return current.cut ? withBend(current.line, current.cut) : current.line;
}

/** Pieces a line is cut into along its length to follow its text's curve: about four characters each. */
const BEND_PIECE = 3;
/** Least sag (times the text height) of a line's curve taken as a bent page, not the wobble of its characters. */
const MIN_SAG = 0.25;
/** Greatest sag (times the text height) followed: more is another line's text, or no text. */
const MAX_SAG = 2;
/** Half the rows (times the text height) whose ink a piece's middle is taken from: its band, not its neighbours'. */
const BEND_WINDOW = 0.65;
/** Most a piece's middle moves from the last piece's (times the text height): more is a neighbour or a picture. */
const BEND_STEP = 0.5;
/** Times a piece's window is moved onto the text it caught. */
const BEND_SETTLE = 4;
/** Share of a line's pieces the curve must run through: text along most of the line, not a few words. */
const BEND_COVER = 0.7;
/** Most the pieces' middles may stray from the curve (root mean square, times the text height). */
const BEND_NOISE = 0.05;
/** Farthest (times the text height) a piece lies off the fitted curve and still counts: the curve is fitted again. */
const BEND_OUTLIER = 0.25;

/**
 * The line with its text's curve (see `Bend`) when its page is bent, measured in the strip its fit was made in: cut
 * in pieces of `BEND_PIECE` text heights, the middle of the ink in each (tracked from the line's middle outwards,
 * within `BEND_STEP` of the last) gives its offset, and a parabola fitted through them, weighted by their ink, the
 * curve. A curve that sags under `MIN_SAG` text heights is a straight line's; one the pieces stray from (a line of
 * print, mixed sizes and cases) is no curve of the text's.
 */
function withBend(line: StripLine, cut: FitCut): StripLine {
  const { ink, f, along, first, last } = cut;
  const { width, height } = ink;
  const text = line.height * f;
  const pieces = Math.floor((last + 1 - first) / (text * BEND_PIECE));
  if (pieces < 5 || text < 4) return line;
  const middle = (height - 1) / 2;
  const points: { t: number; off: number; w: number }[] = [];
  const track = (from: number, to: number, step: number): void => {
    let centre = middle;
    for (let p = from; p !== to; p += step) {
      const x0 = first + Math.round((p * (last + 1 - first)) / pieces);
      const x1 = first + Math.round(((p + 1) * (last + 1 - first)) / pieces);
      const rows = edgeProfile(ink, x0, x1);
      // The middle of the ink within a text height or so of the last piece's: the window moves onto the text it
      // caught until it settles (a band off the window's middle is cut by it, and pulls the middle only part way).
      let found = centre;
      let mass = 0;
      for (let k = 0; k < BEND_SETTLE; k++) {
        const lo = Math.max(0, Math.floor(found - text * BEND_WINDOW));
        const hi = Math.min(height - 1, Math.ceil(found + text * BEND_WINDOW));
        let sum = 0;
        mass = 0;
        for (let y = lo; y <= hi; y++) {
          sum += rows[y]! * y;
          mass += rows[y]!;
        }
        if (mass === 0) break;
        found = sum / mass;
      }
      if (Math.abs(found - centre) > text * BEND_STEP) continue;
      if (mass < (x1 - x0) * 0.5) continue;
      centre = found;
      points.push({ t: ((x0 + x1) / 2 - (width - 1) / 2) / f, off: (found - middle) / f, w: mass });
    }
  };
  const half = Math.floor(pieces / 2);
  track(half, pieces, 1);
  track(half - 1, -1, -1);
  if (points.length < 5) return line;
  const rough = fitParabola(points);
  if (!rough) return line;
  const kept = points.filter((p) => Math.abs(valueAt(rough, p.t) - p.off) <= BEND_OUTLIER * line.height);
  const fit = kept.length >= Math.max(5, pieces * BEND_COVER) ? fitParabola(kept) : null;
  if (!fit) return line;
  const mass = kept.reduce((s, p) => s + p.w, 0);
  const rms = Math.sqrt(kept.reduce((s, p) => s + p.w * (valueAt(fit, p.t) - p.off) ** 2, 0) / mass);
  const sag = Math.abs(fit.c) * (line.length / 2) ** 2;
  if (sag < MIN_SAG * line.height || sag > MAX_SAG * line.height || rms > BEND_NOISE * line.height)
    return line;
  const bend = { ox: along.cx, oy: along.cy, ux: Math.cos(along.angle), uy: Math.sin(along.angle), ...fit };
  return { ...line, bend };
}

/** Weighted least-squares parabola through points; null when they do not determine one. */
function fitParabola(points: readonly { t: number; off: number; w: number }[]): Parabola | null {
  // Normal equations in t over the points' reach (a system of numbers near 1), then back to t.
  const reach = Math.max(1, ...points.map((p) => Math.abs(p.t)));
  const m = new Float64Array(9);
  const r = new Float64Array(3);
  for (const { t, off, w } of points) {
    const u = [1, t / reach, (t / reach) ** 2];
    for (let i = 0; i < 3; i++) {
      r[i]! += w * u[i]! * off;
      for (let j = 0; j < 3; j++) m[i * 3 + j]! += w * u[i]! * u[j]!;
    }
  }
  const x = solveLinear(m, r, 3);
  if (!x) return null;
  const fit = { a: x[0]!, b: x[1]! / reach, c: x[2]! / reach ** 2 };
  return Number.isFinite(fit.a + fit.b + fit.c) ? fit : null;
}

/** The first and last character columns reached from `from` without a gap wider than `maxGap`. */
function endsOf(ink: Uint8Array, from: number, maxGap: number): { first: number; last: number } {
  let first = from;
  for (let x = from, gap = 0; x >= 0 && gap <= maxGap; x--) {
    if (ink[x]) {
      first = x;
      gap = 0;
    } else gap++;
  }
  let last = from;
  for (let x = from, gap = 0; x < ink.length && gap <= maxGap; x++) {
    if (ink[x]) {
      last = x;
      gap = 0;
    } else gap++;
  }
  return { first, last };
}

/** Share of a line's length it is lengthened by on a side where its characters ran on to the strip's end. */
const GROW = 0.5;

/** The line lengthened by `GROW` of its length at its start and/or its end, the other end kept. */
function grow(line: StripLine, start: boolean, end: boolean): StripLine {
  const before = start ? line.length * GROW : 0;
  const after = end ? line.length * GROW : 0;
  const shift = (after - before) / 2;
  return {
    ...line,
    cx: line.cx + shift * Math.cos(line.angle),
    cy: line.cy + shift * Math.sin(line.angle),
    length: line.length + before + after,
  };
}

/** One refinement's answer. */
interface Refinement {
  line: StripLine;
  fitted: boolean;
  start: boolean;
  end: boolean;
  /** The strip the fit was made in, when it was made. */
  cut?: FitCut;
}

/** A fit's strip: its ink, strip pixels per image pixel, the line it was cut along, the characters' columns. */
interface FitCut {
  ink: Raster;
  f: number;
  along: StripLine;
  first: number;
  last: number;
}

/** The line answered as given: no text band was found for it. */
const notFitted = (line: StripLine): Refinement => ({ line, fitted: false, start: false, end: false });

/**
 * One refinement; `fitted` false when no text band was found (the line is answered as given), `start` / `end`
 * when the characters run on to that end of the strip (the line may go on).
 */
function refineOnce(pyramid: GreyPyramid, line: StripLine, keepAngle: boolean, inner = false): Refinement {
  const scale = stripScale(pyramid, line.height);
  // Strip pixels per full-resolution pixel: small text is measured finer than its pixels (see cutStrip).
  const f = scale.level * scale.fine;
  const width = Math.min(4096, Math.round(line.length * 1.3 * f));
  const height = Math.min(512, Math.round(line.height * 3 * f));
  if (width < 16 || height < 6) return notFitted(line);
  const text = line.height * f;
  let current = line;
  let { ink: strip, solid, even } = sample(pyramid, scale, current, width, height);
  const x0 = Math.round(width * 0.15);
  const x1 = Math.round(width * 0.85);
  const xm = Math.round(width / 2);
  const drift = keepAngle
    ? 0
    : profileShift(
        edgeProfile(strip, x0, xm),
        edgeProfile(strip, xm, x1),
        Math.max(1, Math.round(text * 0.3)),
      );
  if (drift !== 0) {
    current = { ...current, angle: current.angle + Math.atan2(drift, (x1 - x0) / 2) };
    ({ ink: strip, solid, even } = sample(pyramid, scale, current, width, height));
  }
  const profile = edgeProfile(strip, x0, x1);
  let band = bandOf(profile, text);
  if (!band) return notFitted(current);
  // A band too tall that took in a frame or rule beside the text: the text is its busiest rows.
  if (inner && band.bottom + 1 - band.top > text * MAX_BAND) {
    const busiest = bandOf(profile, text, 0.5);
    if (busiest) band = busiest;
  }
  const { top, bottom } = band;
  const textHeight = bottom + 1 - top;
  // A band much thinner or thicker than expected is not this line's text: keep the working-scale estimate.
  if (textHeight < text * 0.5 || textHeight > text * MAX_BAND) return notFitted(current);
  // Characters a pattern across the line joins into taller pieces are found in the solid ink.
  const bars = new Uint8Array(width);
  const ink = characterColumns(strip, top, bottom, bars);
  characterColumns(solid, top, bottom).forEach((v, x) => (ink[x] ||= v));
  const maxGap = END_GAP * textHeight;
  let { first, last } = endsOf(ink, xm, maxGap);
  // A bar too tall for a character beside an end may be a shadow's edge, dark only against the lit paper beyond it:
  // against the closed strip its characters are found, and the line goes on.
  const barred = (from: number, to: number): boolean => bars.subarray(Math.max(0, from), to).includes(1);
  if (barred(first - maxGap - 1, first) || barred(last + 1, last + maxGap + 2)) {
    characterColumns(even(), top, bottom).forEach((v, x) => (ink[x] ||= v));
    ({ first, last } = endsOf(ink, xm, maxGap));
  }
  if (last - first < line.length * f * 0.5) return notFitted(current);
  const dx = (first + last) / 2 - (width - 1) / 2;
  const dy = (top + bottom) / 2 - (height - 1) / 2;
  const cos = Math.cos(current.angle);
  const sin = Math.sin(current.angle);
  const refined = {
    cx: current.cx + (dx * cos - dy * sin) / f,
    cy: current.cy + (dx * sin + dy * cos) / f,
    angle: current.angle,
    length: (last + 1 - first) / f,
    height: textHeight / f,
  };
  // Characters closer to the strip's end than the gap that ends a line may go on beyond it.
  return {
    line: refined,
    fitted: true,
    start: first <= maxGap,
    end: last >= width - 1 - maxGap,
    cut: { ink: strip, f, along: current, first, last },
  };
}
