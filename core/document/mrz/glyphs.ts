import fs from 'node:fs';
import { appFile } from '../../assets/assets.js';
import type { Raster } from './morphology.js';
import { otsuThreshold } from './morphology.js';
import { areLookAlikes, type CandidateChar } from './repair.js';
import { sampleBilinear } from './sample.js';

/** Template size in pixels: one character pitch wide, the cap height plus `GLYPH_MARGIN` above and below high. */
export const GLYPH_WIDTH = 14;
export const GLYPH_HEIGHT = 18;
/** Margin above and below the cap band, as a share of the cap height. */
export const GLYPH_MARGIN = 0.15;

/** Sharpness of the softmax that turns correlation scores into probabilities. */
const TEMPERATURE = 30;
/** Sub-sampling of a template pixel's footprint (n × n bilinear samples averaged). */
const SUPERSAMPLE = 2;
/** Shifts of the window tried per cell, as shares of the pitch (x) and cap height (y). */
const SHIFTS_X = [-0.2, -0.1, 0, 0.1, 0.2];
const SHIFTS_Y = [-0.1, 0, 0.1];

/** Pixels of a template or a cell's window. */
const GLYPH_SIZE = GLYPH_WIDTH * GLYPH_HEIGHT;

interface Templates {
  chars: string[];
  /** Every character's variants as zero-mean, unit-norm ink vectors, one after another (`GLYPH_SIZE` each). */
  matrix: Float32Array;
  /** The index in `chars` of each variant in `matrix`. */
  owner: Int32Array;
}

let cached: Templates | null = null;

/** Load the committed OCR-B templates (ocrb-templates.json, generated from fonts-ocr-b, OFL-1.1). */
function templates(): Templates {
  if (cached) return cached;
  const json = JSON.parse(fs.readFileSync(appFile('ocrbTemplates'), 'utf8')) as {
    width: number;
    height: number;
    templates: Record<string, string[]>;
  };
  if (json.width !== GLYPH_WIDTH || json.height !== GLYPH_HEIGHT)
    throw new Error('ocrb-templates.json does not match the glyph size: regenerate it.');
  const chars = Object.keys(json.templates);
  const variants = chars.flatMap((c, index) =>
    (json.templates[c] ?? []).map((b64) => {
      const grey = Buffer.from(b64, 'base64');
      return { index, vector: normalise(Float32Array.from(grey, (v) => 255 - v)) };
    }),
  );
  // One flat matrix: the correlation loop runs over it without a closure or a lookup per variant.
  const matrix = new Float32Array(variants.length * GLYPH_SIZE);
  for (const [t, v] of variants.entries()) matrix.set(v.vector, t * GLYPH_SIZE);
  cached = { chars, matrix, owner: Int32Array.from(variants, (v) => v.index) };
  return cached;
}

/** Zero mean, unit norm (in place); a flat vector stays zero. */
function normalise(v: Float32Array): Float32Array {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const d = (v[i] ?? 0) - mean;
    v[i] = d;
    norm += d * d;
  }
  const k = norm > 1e-6 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) * k;
  return v;
}

/** Where the characters of a line sit: the cap band's rows and the fixed-pitch grid of cells. */
export interface GlyphGrid {
  top: number;
  capHeight: number;
  /** Left edge of the first cell and the pitch, in strip pixels. */
  x0: number;
  pitch: number;
}

/**
 * Find the grid of a level line strip holding `length` fixed-pitch characters: the cap band is the run of
 * rows around the busiest one with a good share of its ink; the pitch and offset are the ones whose cell
 * boundaries cross the least ink while the cells cover all of it.
 */
export function findGlyphGrid(strip: Raster, length: number): GlyphGrid | null {
  const { width, height, data } = strip;
  const threshold = otsuThreshold(data);
  const ink = (x: number, y: number): boolean => (data[y * width + x] ?? 255) <= threshold;
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (ink(x, y)) rows[y]!++;
  let peak = 0;
  // The busiest row nearest the strip's middle: neighbouring lines may peek in at the edges.
  const mid = height / 2;
  for (let y = 0; y < height; y++) {
    const better =
      rows[y]! > rows[peak]! * 1.0001 || (rows[y] === rows[peak] && Math.abs(y - mid) < Math.abs(peak - mid));
    if (better && Math.abs(y - mid) <= height * 0.35) peak = y;
  }
  const floor = rows[peak]! * 0.5;
  if (rows[peak]! < length) return null;
  let top = peak;
  while (top > 0 && rows[top - 1]! >= floor) top--;
  let bottom = peak;
  while (bottom < height - 1 && rows[bottom + 1]! >= floor) bottom++;
  const capHeight = bottom + 1 - top;
  if (capHeight < 4) return null;
  const cols = new Float64Array(width);
  for (let x = 0; x < width; x++) for (let y = top; y <= bottom; y++) if (ink(x, y)) cols[x]!++;
  const minInk = Math.max(1, capHeight * 0.1);
  let first = 0;
  while (first < width && cols[first]! < minInk) first++;
  let last = width - 1;
  while (last > first && cols[last]! < minInk) last--;
  if (last - first < length * 2) return null;
  const colAt = (x: number): number => {
    const i = Math.floor(x);
    const f = x - i;
    return (cols[i] ?? 0) * (1 - f) + (cols[i + 1] ?? 0) * f;
  };
  const total = cols.reduce((s, c) => s + c, 0);
  // Glyphs fill about 0.6–0.75 of a pitch: the ink extent is about (length - 0.3) pitches.
  const p0 = (last + 1 - first) / (length - 0.3);
  let best: GlyphGrid | null = null;
  let bestCost = Infinity;
  for (let p = p0 * 0.96; p <= p0 * 1.04; p += p0 * 0.004) {
    for (let x0 = first - p * 0.45; x0 <= first; x0 += Math.max(0.25, p * 0.05)) {
      let cost = 0;
      for (let k = 0; k <= length; k++) cost += colAt(x0 + k * p);
      // Ink left outside the grid's cells counts heavily: the grid must cover the whole line.
      let outside = 0;
      for (let x = 0; x < width; x++) if (x < x0 || x >= x0 + length * p) outside += cols[x]!;
      cost += (outside * 4 * length) / Math.max(1, total);
      cost += outside;
      if (cost < bestCost) {
        bestCost = cost;
        best = { top, capHeight, x0, pitch: p };
      }
    }
  }
  return best;
}

/** The ink vector of the window around cell `k` of a grid, shifted by (dx, dy) pitches / cap heights. */
function windowVector(
  strip: Raster,
  grid: GlyphGrid,
  k: number,
  dx: number,
  dy: number,
  out: Float32Array,
): Float32Array {
  const winHeight = grid.capHeight * (1 + 2 * GLYPH_MARGIN);
  const left = grid.x0 + (k + dx) * grid.pitch;
  const top = grid.top - grid.capHeight * GLYPH_MARGIN + dy * grid.capHeight;
  const sx = grid.pitch / GLYPH_WIDTH;
  const sy = winHeight / GLYPH_HEIGHT;
  for (let y = 0; y < GLYPH_HEIGHT; y++) {
    for (let x = 0; x < GLYPH_WIDTH; x++) {
      let sum = 0;
      for (let j = 0; j < SUPERSAMPLE; j++)
        for (let i = 0; i < SUPERSAMPLE; i++)
          sum += sampleBilinear(
            strip,
            left + (x + (i + 0.5) / SUPERSAMPLE) * sx - 0.5,
            top + (y + (j + 0.5) / SUPERSAMPLE) * sy - 0.5,
            'clamp',
          );
      out[y * GLYPH_WIDTH + x] = 255 - sum / (SUPERSAMPLE * SUPERSAMPLE);
    }
  }
  return normalise(out);
}

/** Which cells of a line `classifyGlyphs` reads, and among which characters. */
export interface GlyphRead {
  /** The first cells only (each costs about a millisecond). */
  count?: number;
  /** Characters a cell may hold (a name: letters and the filler); every MRZ character when not given. */
  alphabet?: RegExp;
}

/**
 * Read a level MRZ line strip of `length` characters with OCR-B templates: fit the fixed-pitch grid, then
 * match each cell against every glyph (a few shifts, regular and bold, sharp and blurred print) by normalised
 * correlation. Each position comes with the best glyphs as alternatives. Null when no grid fits.
 */
export function classifyGlyphs(
  strip: Raster,
  length: number,
  { count = length, alphabet }: GlyphRead = {},
): CandidateChar[] | null {
  const grid = findGlyphGrid(strip, length);
  if (!grid) return null;
  const { chars, matrix, owner } = templates();
  const allowed = chars.map((c) => alphabet?.test(c) ?? true);
  const window = new Float32Array(GLYPH_SIZE);
  const out: CandidateChar[] = [];
  for (let k = 0; k < Math.min(count, length); k++) {
    const scores = new Float64Array(chars.length).fill(-1);
    for (const dy of SHIFTS_Y) {
      for (const dx of SHIFTS_X) {
        const v = windowVector(strip, grid, k, dx, dy, window);
        for (let t = 0, base = 0; t < owner.length; t++, base += GLYPH_SIZE) {
          if (!allowed[owner[t]!]) continue;
          // Four running sums: independent additions the CPU overlaps (about twice as fast as one).
          let d0 = 0;
          let d1 = 0;
          let d2 = 0;
          let d3 = 0;
          let i = 0;
          for (; i + 3 < GLYPH_SIZE; i += 4) {
            const j = base + i;
            d0 += v[i]! * matrix[j]!;
            d1 += v[i + 1]! * matrix[j + 1]!;
            d2 += v[i + 2]! * matrix[j + 2]!;
            d3 += v[i + 3]! * matrix[j + 3]!;
          }
          for (; i < GLYPH_SIZE; i++) d0 += v[i]! * matrix[base + i]!;
          const dot = d0 + d1 + (d2 + d3);
          const c = owner[t]!;
          if (dot > scores[c]!) scores[c] = dot;
        }
      }
    }
    const max = Math.max(...scores);
    const weights = Array.from(scores, (s) => Math.exp((s - max) * TEMPERATURE));
    const sum = weights.reduce((a, b) => a + b, 0);
    const ranked = chars
      .map((char, c) => ({ char, prob: (weights[c] ?? 0) / sum }))
      .filter((_, c) => allowed[c])
      .sort((a, b) => b.prob - a.prob);
    const [best, ...rest] = ranked;
    out.push({ char: best?.char ?? '<', prob: best?.prob ?? 0, alternatives: rest.slice(0, 3) });
  }
  return out;
}

/** A position of a reading the recogniser did not see: it carries no vote. */
const NOT_SEEN: CandidateChar = { char: '<', prob: 0, alternatives: [] };

/**
 * Place a recognised line on the cells of a glyph reading of the same line (edit-distance alignment; equal
 * characters cost nothing, OCR-B look-alikes little): each cell gets the recognised character aligned with it,
 * or none when the recogniser dropped it. Recognised characters aligned with no cell are left out.
 */
export function alignToCells(
  reading: readonly CandidateChar[],
  cells: readonly CandidateChar[],
): CandidateChar[] {
  const m = reading.length;
  const n = cells.length;
  const cost = new Float64Array((m + 1) * (n + 1));
  const at = (i: number, j: number): number => i * (n + 1) + j;
  for (let i = 0; i <= m; i++) cost[at(i, 0)] = i;
  for (let j = 0; j <= n; j++) cost[at(0, j)] = j;
  const sub = (i: number, j: number): number => {
    const a = reading[i - 1]?.char ?? '';
    const b = cells[j - 1];
    if (!b) return 1;
    if (a === b.char || b.alternatives.some((c) => c.char === a && c.prob >= 0.05)) return 0;
    return areLookAlikes(a, b.char) ? 0.4 : 1;
  };
  for (let i = 1; i <= m; i++)
    for (let j = 1; j <= n; j++)
      cost[at(i, j)] = Math.min(
        cost[at(i - 1, j - 1)]! + sub(i, j),
        cost[at(i - 1, j)]! + 1,
        cost[at(i, j - 1)]! + 1,
      );
  const out: CandidateChar[] = cells.map(() => NOT_SEEN);
  let i = m;
  let j = n;
  while (i > 0 && j > 0) {
    if (cost[at(i, j)] === cost[at(i - 1, j - 1)]! + sub(i, j)) {
      out[j - 1] = reading[i - 1] ?? NOT_SEEN;
      i--;
      j--;
    } else if (cost[at(i, j)] === cost[at(i - 1, j)]! + 1) i--;
    else j--;
  }
  return out;
}
