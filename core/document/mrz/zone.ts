import type { GreyPyramid } from './grey.js';
import { groupMrzBands } from './groups.js';
import {
  analyseLines,
  closingWindow,
  inkOfDarkness,
  inkThreshold,
  strokeDarkness,
  textHeightOf,
  type InkKind,
  type LineAnalysis,
  type LineBand,
} from './locate.js';
import type { Raster } from './morphology.js';
import { transpose } from './binary.js';

/** Longer side of the working copy the zone is searched in. */
export const WORK_SIDE = 800;
/** Expected MRZ character pitch in the working copy: a line of 44 spans about 90% of the longer side. */
const WORK_PITCH = WORK_SIDE / 48;
/** Skew beyond which the working copy is levelled before the search is repeated (radians, 1.5°). */
const MAX_SKEW = (1.5 * Math.PI) / 180;

/** One located MRZ line in full-resolution pixels: the segment's centre, direction, length and text height. */
export interface ZoneLine {
  cx: number;
  cy: number;
  /** Direction of the line, radians; the text reads this way or the opposite way (see `flip`). */
  angle: number;
  length: number;
  height: number;
}

/** A group of 2–3 evenly spaced lines that may be an MRZ, in the order they are stacked. */
export interface ZoneCandidate {
  /** Indexes into `ZoneSearch.lines`, top to bottom when read along `angle`. */
  lines: number[];
  score: number;
}

/** Every line that belongs to some candidate, and the candidates best first. */
export interface ZoneSearch {
  lines: ZoneLine[];
  candidates: ZoneCandidate[];
  /**
   * Directions besides the dominant one that the search found and did not level, radians, as is and transposed
   * (see LineAnalysis.skews); a further look levels along them (ZoneLook.askew).
   */
  askew: [number[], number[]];
}

/** Maps a point of an analysed raster (working copy, transposed or levelled) to full-resolution pixels. */
type Frame = (x: number, y: number) => [number, number];

/**
 * A raster turned by `angle` (radians, clockwise on screen) on a canvas that holds it all, sampled bilinearly;
 * the canvas beyond the source, and the source's outer `margin` pixels, are 0 (no ink in a darkness map).
 */
function rotateRaster(
  src: Raster,
  angle: number,
  margin: number,
): { raster: Raster; back: (x: number, y: number) => [number, number] } {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const width = Math.max(1, Math.round(Math.abs(src.width * cos) + Math.abs(src.height * sin)));
  const height = Math.max(1, Math.round(Math.abs(src.width * sin) + Math.abs(src.height * cos)));
  const back = (x: number, y: number): [number, number] => {
    const dx = x - width / 2;
    const dy = y - height / 2;
    return [src.width / 2 + dx * cos + dy * sin, src.height / 2 - dx * sin + dy * cos];
  };
  const { width: sw, height: sh, data: s } = src;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    // The centre of output pixel (x, y) in the source, in pixel-index coordinates, stepped along the row.
    const [rowX, rowY] = back(0.5, y + 0.5);
    let sx = rowX - 0.5 - cos;
    let sy = rowY - 0.5 + sin;
    for (let x = 0; x < width; x++) {
      sx += cos;
      sy -= sin;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < margin || y0 < margin || x0 + 1 >= sw - margin || y0 + 1 >= sh - margin) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * sw + x0;
      const top = s[i]! + (s[i + 1]! - s[i]!) * fx;
      const bottom = s[i + sw]! + (s[i + sw + 1]! - s[i + sw]!) * fx;
      data[y * width + x] = Math.round(top + (bottom - top) * fy);
    }
  }
  return { raster: { width, height, data }, back };
}

/** Direction folded into (-90°, 90°]: a line's angle without its reading direction. */
function foldAngle(angle: number): number {
  let a = angle % Math.PI;
  if (a <= -Math.PI / 2) a += Math.PI;
  if (a > Math.PI / 2) a -= Math.PI;
  return a;
}

/** A band's centre segment (the strip geometry of a skewed line) mapped to full resolution. */
function toZoneLine(band: LineBand, frame: Frame): ZoneLine {
  const tan = Math.tan(band.angle);
  const centreX = band.x + band.width / 2;
  const centreY = band.cy + (centreX - band.cx) * tan;
  const half = band.width / 2;
  const textHeight = textHeightOf(band);
  const [x0, y0] = frame(centreX - half, centreY - half * tan);
  const [x1, y1] = frame(centreX + half, centreY + half * tan);
  // The frame is a similarity: its scale is a unit step's length.
  const [ox, oy] = frame(0, 0);
  const [ux, uy] = frame(1, 0);
  const scale = Math.hypot(ux - ox, uy - oy);
  return {
    cx: (x0 + x1) / 2,
    cy: (y0 + y1) / 2,
    angle: foldAngle(Math.atan2(y1 - y0, x1 - x0)),
    length: Math.hypot(x1 - x0, y1 - y0),
    height: textHeight * scale,
  };
}

/** How MRZ-like a group's geometry is: long lines, ends aligned (fixed pitch, equal length), flat. */
function scoreOf(group: readonly LineBand[], reference: number): number {
  const lefts = group.map((b) => b.x);
  const rights = group.map((b) => b.x + b.width);
  const length = Math.max(...rights) - Math.min(...lefts);
  const height = Math.max(...group.map((b) => b.height));
  const ragged = Math.max(...lefts) - Math.min(...lefts) + Math.max(...rights) - Math.min(...rights);
  const flat = Math.min(1, length / height / 20);
  const regular = group.reduce((s, b) => s + (b.regularity ?? 0), 0) / group.length;
  return (
    (length / reference) *
    flat *
    regular ** 2 *
    (1 - Math.min(0.9, ragged / length)) *
    (group.length === 3 ? 1.05 : 1)
  );
}

/** Which search `findMrzCandidates` makes. */
export interface ZoneLook {
  /**
   * The ink mask searched (see inkOfDarkness): `plain` by default; `pattern` keeps only print near the darkness of
   * the darkest print nearby (through a guilloche or a stamp); `faint` keeps such print however faint.
   */
  ink?: InkKind;
  /** Level along these directions only (a first search's `askew`), not along the dominant one. */
  askew?: ZoneSearch['askew'];
  /**
   * Search the working copy as is only (`level`: lines within about ±45° of horizontal), or transposed only
   * (`turned`: quarter turns); both when not given.
   */
  frame?: 'level' | 'turned';
  /**
   * Search for a zone spanning `span` times less of the image than usual (a document in a larger photo or scan),
   * its characters that much closer in the working copy; 1 by default.
   */
  span?: number;
}

/**
 * A pyramid's working copy's stroke darkness, and its ink thresholds and masks of each kind: every look and frame
 * searched later reuses them.
 */
interface WorkMaps {
  darkness: Raster;
  thresholds: Map<InkKind, number>;
  masks: Map<InkKind, Raster>;
}
/** Each pyramid's maps, by the pitch they were made for (a look for a smaller zone has its own). */
const workMaps = new WeakMap<GreyPyramid, Map<number, WorkMaps>>();

/** A working copy searched for a zone of `pitch` pixels between characters. */
interface Work {
  raster: Raster;
  pitch: number;
}

function mapsOf(pyramid: GreyPyramid, work: Work): WorkMaps {
  let copies = workMaps.get(pyramid);
  if (!copies) workMaps.set(pyramid, (copies = new Map<number, WorkMaps>()));
  let maps = copies.get(work.pitch);
  if (!maps) {
    maps = { darkness: strokeDarkness(work.raster, work.pitch), thresholds: new Map(), masks: new Map() };
    copies.set(work.pitch, maps);
  }
  return maps;
}

/** The page's ink threshold of a kind: its masks, as is, transposed or turned to level it, all use it. */
function thresholdOf(pyramid: GreyPyramid, work: Work, ink: InkKind): number {
  const { darkness, thresholds } = mapsOf(pyramid, work);
  let threshold = thresholds.get(ink);
  if (threshold === undefined) thresholds.set(ink, (threshold = inkThreshold(darkness, ink)));
  return threshold;
}

function maskOf(pyramid: GreyPyramid, work: Work, ink: InkKind): Raster {
  const { darkness, masks } = mapsOf(pyramid, work);
  let mask = masks.get(ink);
  if (!mask)
    masks.set(ink, (mask = inkOfDarkness(darkness, work.pitch, ink, thresholdOf(pyramid, work, ink))));
  return mask;
}

/** Made when first asked for: levelling along a given direction needs neither the mask nor its analysis. */
type Lazy<T> = () => T;

/**
 * Search one orientation of the working copy (as is or transposed): levelled along its dominant direction when
 * tilted, or along the `skews` given; the other directions found are added to `others`.
 */
function searchFrame(
  mask: Lazy<Raster>,
  darkness: Lazy<Raster>,
  threshold: Lazy<number>,
  frame: Frame,
  pitch: number,
  reference: number,
  out: ZoneSearch,
  ink: InkKind,
  given: number[] | undefined,
  others: number[],
): void {
  let level: LineAnalysis | undefined;
  // Characters that touch count as a line's in the looks through a pattern and for faint print only: in the plain
  // mask a pattern printed across the zone joins characters too, and the look through it finds that zone better.
  const touching = ink !== 'plain';
  const analysed = (): LineAnalysis => (level ??= analyseLines(mask(), pitch, reference, touching));
  let skews = given;
  if (!skews) {
    const [dominant = 0, ...rest] = analysed().skews;
    // Pieces mostly across this orientation are the other orientation's to find.
    others.push(...rest.filter((skew) => Math.abs(skew) < Math.PI / 4));
    skews = [dominant];
  }
  for (const skew of skews) {
    if (Math.abs(skew) <= MAX_SKEW || Math.abs(skew) >= Math.PI / 4) {
      addGroups(analysed(), frame, out, reference);
      continue;
    }
    // The darkness map is turned and thresholded again: a turned mask's jagged edges join neighbouring lines.
    // Within a closing window of the border, a dark margin cut narrow by the border (a table beside a page shot
    // askew) looks like a stroke; turned into the page's frame it would stand beside the lines and join them.
    const { raster: rotated, back } = rotateRaster(darkness(), -skew, closingWindow(pitch));
    const analysis = analyseLines(
      inkOfDarkness(rotated, pitch, ink, threshold()),
      pitch,
      reference,
      touching,
    );
    const map: Frame = (x, y) => {
      const [sx, sy] = back(x + 0.5, y + 0.5);
      return frame(sx - 0.5, sy - 0.5);
    };
    addGroups(analysis, map, out, reference);
  }
}

/** The MRZ-like groups of an analysed frame as candidates. */
function addGroups(analysis: LineAnalysis, map: Frame, out: ZoneSearch, reference: number): void {
  const index = new Map<LineBand, number>();
  for (const group of groupMrzBands(analysis.bands)) {
    for (const band of group) {
      if (index.has(band)) continue;
      index.set(band, out.lines.length);
      out.lines.push(toZoneLine(band, map));
    }
    out.candidates.push({ lines: group.map((b) => index.get(b)!), score: scoreOf(group, reference) });
  }
}

/**
 * Find MRZ-like groups of lines anywhere in the image, in one pass over one working copy: as is (lines within
 * about ±45° of horizontal, levelled when tilted) and transposed (lines near vertical: quarter turns). Which
 * way the text reads (upright or upside down, turned left or right) is left to the recogniser.
 * `look` asks for a further look: through a pattern (a second look for an MRZ printed over a guilloche or
 * crossed by a stamp), along the other directions a first search found, or for a zone across less of the image.
 */
export function findMrzCandidates(pyramid: GreyPyramid, look: ZoneLook = {}): ZoneSearch {
  const out: ZoneSearch = { lines: [], candidates: [], askew: [[], []] };
  if (Math.min(pyramid.width, pyramid.height) < MIN_SIDE) return out;
  const { raster, scale } = pyramid.resized(WORK_SIDE);
  const span = look.span ?? 1;
  const work: Work = { raster, pitch: WORK_PITCH / span };
  // Sizes are judged against the pitch searched for: a look for a smaller zone keeps the same limits in characters.
  const reference = WORK_SIDE / span;
  const ink = look.ink ?? 'plain';
  const mask = (): Raster => maskOf(pyramid, work, ink);
  const threshold = (): number => thresholdOf(pyramid, work, ink);
  const full = (v: number): number => (v + 0.5) / scale - 0.5;
  if (look.frame !== 'turned')
    searchFrame(
      mask,
      () => mapsOf(pyramid, work).darkness,
      threshold,
      (x, y) => [full(x), full(y)],
      work.pitch,
      reference,
      out,
      ink,
      look.askew?.[0],
      out.askew[0],
    );
  if (look.frame !== 'level')
    searchFrame(
      () => transpose(mask()),
      () => transpose(mapsOf(pyramid, work).darkness),
      threshold,
      (x, y) => [full(y), full(x)],
      work.pitch,
      reference,
      out,
      ink,
      look.askew?.[1],
      out.askew[1],
    );
  out.candidates.sort((a, b) => b.score - a.score);
  return out;
}

/** Shorter side below which no MRZ (two lines of legible characters) can be present. */
export const MIN_SIDE = 16;
