import type { GreyPyramid } from './grey.js';
import type { Raster } from './morphology.js';
import { normaliseStrip, sampleRotatedRect } from './sample.js';
import type { ZoneLine } from './zone.js';

/** Text height (pixels) a strip is cut at, at least: finer pyramid levels are used below it. */
export const MIN_STRIP_TEXT = 32;

/** A line laid out for reading: its centre, reading direction and the extent of the whole zone along it. */
export interface StripLine {
  cx: number;
  cy: number;
  /** Reading direction, radians (the text's baseline runs this way). */
  angle: number;
  length: number;
  height: number;
  /** The text's curve off the straight line, when the page is bent (see `Bend`). */
  bend?: Bend;
}

/** A parabola `a + b·t + c·t²`. */
export interface Parabola {
  a: number;
  b: number;
  c: number;
}

/** A parabola's value at `t`. */
export const valueAt = ({ a, b, c }: Parabola, t: number): number => a + b * t + c * t * t;

/**
 * A line's text curving off a straight line (a bent page: a passport's data page curls towards its binding): at
 * distance `t` along `(ux, uy)` from `(ox, oy)`, the text's middle lies the parabola's value at `t` pixels along the
 * normal `(-uy, ux)`. Full-resolution pixels, in image terms.
 */
export interface Bend extends Parabola {
  ox: number;
  oy: number;
  ux: number;
  uy: number;
}

/**
 * How far (full-resolution pixels, along the line's own normal) a bent line's text lies from the line's point
 * `(x, y)`: the curve is in image terms, so a line moved along itself or turned round still finds its text.
 */
export function bendAt(line: StripLine, x: number, y: number): number {
  const bend = line.bend;
  if (!bend) return 0;
  const t = (x - bend.ox) * bend.ux + (y - bend.oy) * bend.uy;
  const off = valueAt(bend, t);
  const qx = bend.ox + t * bend.ux - off * bend.uy;
  const qy = bend.oy + t * bend.uy + off * bend.ux;
  return -(qx - x) * Math.sin(line.angle) + (qy - y) * Math.cos(line.angle);
}

/**
 * Per-column shifts (in `level` pixels, along the strip's normal) that follow a bent line's text in a strip
 * `width` columns wide, `f` strip pixels per full-resolution pixel; undefined for a straight line.
 */
export function bendShifts(
  line: StripLine,
  width: number,
  f: number,
  level: number,
): Float32Array | undefined {
  if (!line.bend) return undefined;
  const shifts = new Float32Array(width);
  const ux = Math.cos(line.angle);
  const uy = Math.sin(line.angle);
  for (let x = 0; x < width; x++) {
    const along = (x - (width - 1) / 2) / f;
    shifts[x] = bendAt(line, line.cx + along * ux, line.cy + along * uy) * level;
  }
  return shifts;
}

/** The zone box in full-resolution pixels (axis-aligned bounds of its lines). */
export interface ZoneBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Lay out a group of lines for reading along their common direction: top to bottom, each stretched to the
 * whole group's extent, since every MRZ line holds the same number of fixed-pitch characters (a line found
 * only in part is read whole).
 */
export function layoutGroup(lines: readonly (ZoneLine | StripLine)[]): StripLine[] {
  const angle =
    Math.atan2(
      lines.reduce((s, l) => s + Math.sin(2 * l.angle), 0),
      lines.reduce((s, l) => s + Math.cos(2 * l.angle), 0),
    ) / 2;
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const along = lines.map((l) => l.cx * ux + l.cy * uy);
  const lo = Math.min(...lines.map((l, i) => along[i]! - l.length / 2));
  const hi = Math.max(...lines.map((l, i) => along[i]! + l.length / 2));
  const mid = (lo + hi) / 2;
  const down = (l: ZoneLine | StripLine): number => -l.cx * uy + l.cy * ux;
  return lines
    .map((l, i) => ({
      cx: l.cx + (mid - along[i]!) * ux,
      cy: l.cy + (mid - along[i]!) * uy,
      angle: l.angle + (Math.abs(l.angle - angle) > Math.PI / 2 ? Math.PI : 0) * Math.sign(angle - l.angle),
      length: hi - lo,
      height: l.height,
      order: down(l),
    }))
    .sort((a, b) => a.order - b.order)
    .map(({ order: _, ...line }) => line);
}

/** How far `b`'s centre lies from `a`'s across `a`'s direction (positive below it, in image rows). */
export function across(a: StripLine, b: StripLine): number {
  return -(b.cx - a.cx) * Math.sin(a.angle) + (b.cy - a.cy) * Math.cos(a.angle);
}

/** The same lines read the other way round: the document upside down (or turned the other quarter). */
export function flipLayout(lines: readonly StripLine[]): StripLine[] {
  return [...lines].reverse().map((l) => ({ ...l, angle: l.angle + Math.PI }));
}

/** Axis-aligned bounds of the laid-out lines with a margin of one text height, clipped to the image. */
export function zoneBox(lines: readonly StripLine[], width: number, height: number): ZoneBox {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const l of lines) {
    const hx = (Math.cos(l.angle) * (l.length + 2 * l.height)) / 2;
    const hy = (Math.sin(l.angle) * (l.length + 2 * l.height)) / 2;
    const nx = -Math.sin(l.angle) * l.height;
    const ny = Math.cos(l.angle) * l.height;
    for (const [sx, sy] of [
      [1, 1],
      [1, -1],
      [-1, 1],
      [-1, -1],
    ] as const) {
      xs.push(l.cx + sx * hx + sy * nx);
      ys.push(l.cy + sx * hy + sy * ny);
    }
  }
  const x = Math.max(0, Math.floor(Math.min(...xs)));
  const y = Math.max(0, Math.floor(Math.min(...ys)));
  return {
    x,
    y,
    width: Math.max(0, Math.min(width, Math.ceil(Math.max(...xs))) - x),
    height: Math.max(0, Math.min(height, Math.ceil(Math.max(...ys))) - y),
  };
}

/** Where a line of text `height` pixels tall is cut from: a pyramid level, and how much finer than it. */
export interface StripScale {
  /** Pyramid level sampled. */
  k: number;
  /** That level's scale relative to full resolution. */
  level: number;
  /** Output pixels per level pixel: above 1 for text under half `MIN_STRIP_TEXT` (see cutStrip). */
  fine: number;
}

/** The level whose text is nearest (but not under) `MIN_STRIP_TEXT` pixels, sampled finer when text is small. */
export function stripScale(pyramid: GreyPyramid, height: number): StripScale {
  const k = Math.max(0, Math.floor(Math.log2(Math.max(1, height) / MIN_STRIP_TEXT)));
  const level = pyramid.scaleOf(k);
  const text = height * level;
  return { k, level, fine: text < MIN_STRIP_TEXT / 2 ? MIN_STRIP_TEXT / Math.max(1, text) : 1 };
}

/**
 * Cut a line out level, `strip` times its text height tall, from the pyramid level whose text is nearest
 * (but not under) `MIN_STRIP_TEXT` pixels, its contrast stretched along the line (see normaliseStrip). Text
 * under half that height is sampled finer than the image, to `MIN_STRIP_TEXT`: cut at its own few pixels, the
 * strip's rows and the line's sub-pixel position would be rounded to whole pixels (a blur and a height error of
 * a sixth of a 6-pixel character), and small web images would read much worse.
 */
export function cutStrip(pyramid: GreyPyramid, line: StripLine, strip: number): Raster {
  const { k, level, fine } = stripScale(pyramid, line.height);
  const src = pyramid.level(k);
  // Output pixels per full-resolution pixel.
  const f = level * fine;
  const out = normaliseStrip(
    sampleRotatedRect(src, {
      cx: (line.cx + 0.5) * level - 0.5,
      cy: (line.cy + 0.5) * level - 0.5,
      width: stripWidth(line, f),
      height: Math.min(512, line.height * strip * f),
      angle: line.angle,
      step: 1 / fine,
      shifts: bendShifts(line, stripWidth(line, f), f, level),
    }),
    line.height * f * 1.5,
  );
  // Paper beyond the text band and past the line's ends: a rule, a box, the next line's edge or the page's
  // edge there misleads the recogniser.
  const keep = line.height * f * CLEAR_BEYOND;
  const { width, height, data } = out;
  const ends = Math.max(0, Math.round((width - (line.length + 2 * CLEAR_PAST_END * line.height) * f) / 2));
  for (let y = 0; y < height; y++) {
    const row = y * width;
    if (Math.abs(y - (height - 1) / 2) > keep) data.fill(255, row, row + width);
    else if (ends > 0) {
      data.fill(255, row, row + ends);
      data.fill(255, row + width - ends, row + width);
    }
  }
  return out;
}

/** Paper left and right of a line's characters in a strip, in text heights. */
const SIDE_MARGIN = 1.5;

/**
 * A line's strip width at `f` strip pixels per image pixel, with paper either side: the recogniser drops a first or
 * last character that sits near the strip's edge.
 */
function stripWidth(line: StripLine, f: number): number {
  return Math.max(1, Math.round(Math.min(4096, (line.length + SIDE_MARGIN * 2 * line.height) * f)));
}

/** How far along `line` (image pixels from its centre, in reading direction) column `x` of its strip lies. */
export function alongStrip(pyramid: GreyPyramid, line: StripLine, x: number): number {
  const { level, fine } = stripScale(pyramid, line.height);
  const f = level * fine;
  return (x - (stripWidth(line, f) - 1) / 2) / f;
}

/** Columns farther than this many text heights past a line's measured ends are painted paper white. */
const CLEAR_PAST_END = 0.5;

/** Rows of a strip farther from the line's centre than this many text heights are painted paper white. */
const CLEAR_BEYOND = 0.62;
