import { closeRows, openColumns, openRows } from './binary.js';
import { components } from './components.js';
import { dilate, erode, histogram, otsuOfHistogram, type Raster } from './morphology.js';

/** A text-line band found in the working image: its box, ink angle and centre line. */
export interface LineBand {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Skew of the band in radians (positive: the line descends to the right). */
  angle: number;
  /** Centre of the band's ink. */
  cx: number;
  cy: number;
  /** Length and thickness along the ink's principal axes (a uniform bar of that size has the same moments). */
  length: number;
  thickness: number;
  /** Share of the gaps between neighbouring characters that fit a fixed pitch (set for lines, 0–1). */
  regularity?: number;
}

/** Lowest relative darkness (share of the local background's brightness, 0–255) counted as ink, whatever Otsu says. */
const MIN_INK = 40;
/** Share of the pixels, darkest first, whose relative darkness measures the image's print (its darkest strokes). */
const PRINT_SHARE = 0.001;
/** Background brightness below which darkness is measured against this floor (deep shadow, black margins). */
const MIN_BACKGROUND = 48;

/** Text-line bands of a working image and the dominant skew of its text. */
export interface LineAnalysis {
  /** Bands long and flat enough to be MRZ lines, top to bottom. */
  bands: LineBand[];
  /**
   * Directions of the elongated pieces, radians, the dominant first: the length-weighted median of all of them,
   * then, when enough pieces lie askew of it, theirs (a page photographed on a table: the table's or the
   * screen's edges one way, the document's print another). Empty when there are none.
   */
  skews: number[];
}

/**
 * How many times the page's median darkness ink must reach. Most of a page is paper, so its median darkness is the
 * grain of its paper and its photo's noise; the black-hat of pure noise reaches 2.5 times its median at one or two
 * pixels in 10^4 (σ 5-20 on mid-grey), too few specks to join into lines.
 */
const GRAIN = 2.5;

/** Share of the darkest print nearby that a pixel must reach in a mask that sees through a printed pattern. */
const PATTERN_SHARE = 0.5;

/** Side of the square closing window of `strokeDarkness`: a little over a character pitch. */
export function closingWindow(pitch: number): number {
  return Math.max(3, Math.round(pitch * 1.2));
}

/**
 * Darkness of dark strokes on a lighter ground: the black-hat (closing minus image) relative to the local
 * background, 0–255, so a dim corner, a glare spot and a faint print give the same response as crisp print. The
 * square window finds strokes of any direction, so the map of a quarter-turned page is the transposed map, and a
 * turned map is (up to resampling) the map of the turned page.
 */
export function strokeDarkness(gray: Raster, pitch: number): Raster {
  const { width, height } = gray;
  const k = closingWindow(pitch);
  const closed = erode(dilate(gray, k, k), k, k).data;
  const table = (darknessTable ??= makeDarknessTable());
  const rel = new Uint8Array(width * height);
  for (let i = 0; i < rel.length; i++) rel[i] = table[(closed[i]! << 8) | gray.data[i]!]!;
  return { width, height, data: rel };
}

/** `strokeDarkness` of each (background, pixel) pair, made once: a table read instead of a division a pixel. */
let darknessTable: Uint8Array | undefined;

function makeDarknessTable(): Uint8Array {
  const table = new Uint8Array(256 * 256);
  for (let bg = 0; bg < 256; bg++) {
    for (let v = 0; v < bg; v++) {
      table[(bg << 8) | v] = Math.min(255, Math.round(((bg - v) * 255) / Math.max(bg, MIN_BACKGROUND)));
    }
  }
  return table;
}

/** Which ink a mask keeps (see `inkOfDarkness`). */
export type InkKind = 'plain' | 'pattern' | 'faint';

/** Least darkness a faint look counts as ink: above what a JPEG's noise and paper texture reach. */
const FAINT_INK = 12;

/**
 * Ink of a stroke darkness map (see `strokeDarkness`): darkness from `threshold` on (see `inkThreshold`). With
 * `pattern`, a pixel is ink only when it is also at least half as dark as the darkest print within a pitch
 * of it: a guilloche or a stamp printed across the MRZ is lighter than its black characters and falls away from
 * them (it joins them into one blot otherwise). `faint` keeps that rule alone, down to `FAINT_INK`: print that
 * a glare spot or uneven light leaves much fainter than the page's other print, which the page's threshold drops.
 */
export function inkOfDarkness(
  darkness: Raster,
  pitch: number,
  kind: InkKind = 'plain',
  threshold = inkThreshold(darkness, kind),
): Raster {
  const { width, height, data: rel } = darkness;
  const mask = new Uint8Array(width * height);
  const reach = Math.max(3, Math.round(pitch * 2));
  const near = kind === 'plain' ? null : dilate(darkness, reach, reach).data;
  for (let i = 0; i < mask.length; i++) {
    const floor = near ? Math.max(threshold, (near[i] ?? 0) * PATTERN_SHARE) : threshold;
    mask[i] = (rel[i] ?? 0) >= floor ? 255 : 0;
  }
  return { width, height, data: mask };
}

/**
 * The darkness from which a map's pixels count as ink (see `inkOfDarkness`): Otsu, never below `MIN_INK` or, on a
 * washed-out image whose darkest print is fainter than twice that, half the darkest print's darkness; and never
 * below `GRAIN` times the median. A map turned to level a page is thresholded at its unturned map's level: the
 * corners outside the page weigh in its histogram as paper and pull Otsu down to the page's noise.
 */
export function inkThreshold(darkness: Raster, kind: InkKind = 'plain'): number {
  if (kind === 'faint') return FAINT_INK;
  const hist = histogram(darkness.data);
  return Math.max(
    Math.min(MIN_INK, printDarkness(hist, darkness.data.length) / 2),
    otsuOfHistogram(hist),
    GRAIN * medianOf(hist, darkness.data.length),
  );
}

/** Median of `count` values given by their histogram. */
function medianOf(hist: Float64Array, count: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= count / 2) return v;
  }
  return 255;
}

/** Relative darkness of an image's darkest print: the level that `PRINT_SHARE` of its `count` pixels reach. */
function printDarkness(hist: Float64Array, count: number): number {
  let above = 0;
  for (let v = 255; v > 0; v--) {
    above += hist[v]!;
    if (above >= count * PRINT_SHARE) return v;
  }
  return 0;
}

/** Ink pixels of the unjoined mask in each column of a band. */
function columnInk(band: LineBand, mask: Raster): Int32Array {
  const counts = new Int32Array(band.width);
  for (let y = band.y; y < band.y + band.height; y++) {
    const row = y * mask.width + band.x;
    for (let x = 0; x < band.width; x++) if (mask.data[row + x] !== 0) counts[x]!++;
  }
  return counts;
}

/** Characters found along a band, how regularly they are spaced, and their median centre-to-centre step. */
interface CharacterRuns {
  runs: number;
  regularity: number;
  step: number;
}

/**
 * The characters along a band: runs of columns holding more than `floor` ink pixels, between columns holding no
 * more. Their regularity is the share of centre-to-centre steps within 25% of a whole number of the median step.
 * Fixed-pitch OCR-B gives nearly 1 (touching characters make double steps); proportional print and pictures much
 * less.
 */
function characterRuns(counts: Int32Array, floor: number): CharacterRuns {
  const centres: number[] = [];
  let start = -1;
  for (let x = 0; x <= counts.length; x++) {
    const ink = x < counts.length && counts[x]! > floor;
    if (ink && start < 0) start = x;
    if (!ink && start >= 0) {
      centres.push((start + x - 1) / 2);
      start = -1;
    }
  }
  const steps = centres.slice(1).map((c, i) => c - centres[i]!);
  if (steps.length < 2) return { runs: centres.length, regularity: 0, step: 0 };
  const step = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)]!;
  const fits = steps.filter((d) => {
    const n = Math.max(1, Math.round(d / step));
    return Math.abs(d - n * step) <= 0.25 * step;
  }).length;
  return { runs: centres.length, regularity: fits / steps.length, step };
}

/**
 * The characters along a band of the mask: runs of inked columns between empty ones (spaced as evenly as they are
 * with lone pixels of noise left out); or, when too few are parted so, runs found another way, when they are most of
 * an MRZ line's characters and spaced as characters rather than strokes: blur along the line (a shaken camera) fills
 * the gaps between characters, and runs of columns holding most of the fullest column's ink remain; heavy print
 * joins neighbouring characters, and runs of columns between the profile's valleys remain (see `valleysCleared`),
 * looked for only when `touching` is asked.
 */
function bandCharacters(band: LineBand, mask: Raster, touching: boolean): CharacterRuns {
  const counts = columnInk(band, mask);
  const parted = characterRuns(counts, 0);
  // A lone pixel in a gap (JPEG ringing, noise) joins two characters or stands as one: at a few pixels a character it
  // made a small MRZ look irregular, ranked below print. Noise only ever breaks a fixed pitch, so the more regular
  // spacing of the two views is the print's.
  const unspecked = characterRuns(counts, 1);
  if (unspecked.runs >= MIN_RUNS && unspecked.regularity > parted.regularity)
    parted.regularity = unspecked.regularity;
  if (parted.runs >= MIN_RUNS) return parted;
  let fullest = 0;
  for (const n of counts) if (n > fullest) fullest = n;
  const spacedAsCharacters = (runs: CharacterRuns): boolean =>
    runs.runs >= MIN_BLURRED_RUNS && runs.step >= MIN_STEP * band.height;
  const blurred = characterRuns(counts, fullest * BLURRED_GAP);
  if (spacedAsCharacters(blurred)) return blurred;
  if (!touching) return parted;
  const hills = characterRuns(valleysCleared(counts, band.height), 0);
  return spacedAsCharacters(hills) ? hills : parted;
}

/**
 * A band's column profile with the columns of its valleys emptied: those holding at most `VALLEY_SHARE` of the most
 * ink within about a character pitch either side (three quarters of the band's height). Characters of heavy print
 * touch, but each stays a hill of the profile: its strokes hold ink over much of the line's height, where it joins
 * its neighbour only a few rows do. Fillers, lower hills than letters, are measured against their neighbours' in a
 * run of them, not against the fullest column of the line.
 */
function valleysCleared(counts: Int32Array, height: number): Int32Array {
  const reach = Math.max(2, Math.round(height * 0.75));
  const out = new Int32Array(counts.length);
  for (let x = 0; x < counts.length; x++) {
    let near = 0;
    for (let k = Math.max(0, x - reach); k <= Math.min(counts.length - 1, x + reach); k++)
      near = Math.max(near, counts[k]!);
    out[x] = counts[x]! > near * VALLEY_SHARE ? counts[x]! : 0;
  }
  return out;
}

/** Share of the nearby peak's ink at or under which a column of a band is a valley between characters. */
const VALLEY_SHARE = 0.4;

/**
 * Share of the fullest column's ink under which a column of a band whose characters ran together is a gap: blur
 * leaves clearly less ink between characters than through them, and a looser share takes the crossings of a
 * guilloche's wavy lines for characters.
 */
const BLURRED_GAP = 0.7;

/** Fewest characters a band whose characters ran together must show in its column profile (30–44 printed). */
const MIN_BLURRED_RUNS = 25;

/** Least character step, in band heights, of such a band: OCR-B's pitch is about three quarters of its height. */
const MIN_STEP = 0.5;

/** Opening along rows (in character pitches) that parts a line from a page edge its end touches. */
const EDGE_OPENING = 3;

/**
 * Lines freed by an opening along rows from `tall` pieces of `mask` that are a line and an edge its end touches:
 * the line spans most of such a piece's width (a block of print joined to a picture does not), and is not one
 * of the lines `found` already.
 */
function linesOffEdges(
  mask: Raster,
  pitch: number,
  reference: number,
  tall: readonly LineBand[],
  found: readonly LineBand[],
): LineBand[] {
  // The same piece found again: most of the smaller box is shared (neighbouring lines askew share a little).
  const overlaps = (a: LineBand, b: LineBand): boolean =>
    Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
      Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)) >
    0.5 * Math.min(a.width * a.height, b.width * b.height);
  const alongEdge = (b: LineBand): boolean =>
    tall.some(
      (t) =>
        b.x >= t.x &&
        b.y >= t.y &&
        b.x + b.width <= t.x + t.width &&
        b.y + b.height <= t.y + t.height &&
        b.width >= t.width * EDGE_LINE_SHARE,
    );
  return components(openRows(mask, Math.round(pitch * EDGE_OPENING))).filter(
    (b) => b.height <= reference * 0.1 && alongEdge(b) && !found.some((f) => overlaps(f, b)),
  );
}

/** Least share of a line-and-edge piece's width the freed line spans. */
const EDGE_LINE_SHARE = 0.75;

/** Height of a band's text: its box's height less the rise of a line at the band's angle along its width. */
export function textHeightOf(band: LineBand): number {
  return Math.max(band.height * 0.5, band.height - band.width * Math.abs(Math.tan(band.angle)));
}

/** Fewest separate characters a band must hold to be an MRZ line (30–44 printed; some touch when blurred). */
const MIN_RUNS = 10;

/**
 * Find long thin text-line bands in an ink mask whose MRZ characters would be about `pitch` pixels apart:
 * a horizontal closing that joins the characters of a line, then connected components long and flat enough to
 * be MRZ lines, made of many separate characters (`reference` is the image's longer side at this scale). Also
 * estimates the text's skew from every elongated piece, so a tilted photo can be levelled and searched again.
 * With `touching`, a band whose characters touch (heavy print) is a line too (see `bandCharacters`).
 */
export function analyseLines(mask: Raster, pitch: number, reference: number, touching = false): LineAnalysis {
  const joined = closeRows(mask, Math.round(pitch * 1.1));
  // Openings drop what is thinner than text across (rules under or over a line, specks) and along (the sides
  // of a box drawn round the zone, a page edge), which would otherwise join lines into one blob.
  const across = Math.max(3, Math.round(pitch * 0.2));
  const along = Math.max(3, Math.round(pitch * 0.4));
  const cleaned = openRows(openColumns(joined, across), along);
  const all = components(cleaned);
  const flat = all.filter((b) => b.height <= reference * 0.1);
  // A line whose end touches a page's edge or a narrow dark margin is one piece with it, too tall for a line:
  // opened along rows over a few characters, the edge (narrower than that) goes and the line stays.
  const tall = all.filter((b) => b.height > reference * 0.1);
  if (tall.length > 0) flat.push(...linesOffEdges(cleaned, pitch, reference, tall, flat));
  const bands = mergeRowNeighbours(flat)
    .flatMap((b) => splitStacked(b, cleaned, reference * MAX_LINE_HEIGHT))
    .filter(
      (b) =>
        b.width >= reference * 0.1 &&
        b.height >= 3 &&
        b.height <= reference * MAX_LINE_HEIGHT &&
        b.width / b.height >= 7,
    )
    .flatMap((b) => {
      const { runs, regularity } = bandCharacters(b, mask, touching);
      // A flat band's angle from a merged or sliced blob's moments can be anything: keep it only when plausible.
      const angle = Math.abs(b.angle) <= Math.atan2(b.height, b.width) + 0.05 ? b.angle : 0;
      return runs >= MIN_RUNS ? [{ ...b, angle, regularity }] : [];
    })
    .sort((a, b) => a.y - b.y);
  return {
    bands,
    skews: skewModes(
      all.filter((b) => b.length >= pitch * 3 && b.length >= 5 * b.thickness),
      reference,
    ),
  };
}

/**
 * Join pieces of one text line (a word gap wider than the closing, e.g. `PUBLIC` and `<<JON<<<`): level pieces
 * that overlap vertically by most of their height and are at most a few heights apart.
 */
function mergeRowNeighbours(pieces: LineBand[]): LineBand[] {
  const sorted = [...pieces].sort((a, b) => a.x - b.x);
  const out: LineBand[] = [];
  for (const piece of sorted) {
    const host = out.find((o) => {
      const overlap = Math.min(o.y + o.height, piece.y + piece.height) - Math.max(o.y, piece.y);
      const gap = piece.x - (o.x + o.width);
      return (
        overlap >= 0.6 * Math.min(o.height, piece.height) &&
        // The text's height is the lower box's: beside a page edge or a picture a gap that wide is no word gap.
        gap < 3 * Math.min(o.height, piece.height) &&
        gap > -o.width / 2
      );
    });
    if (!host) {
      out.push({ ...piece });
      continue;
    }
    const right = Math.max(host.x + host.width, piece.x + piece.width);
    const bottom = Math.max(host.y + host.height, piece.y + piece.height);
    const weight = host.length / (host.length + piece.length);
    host.cx = host.cx * weight + piece.cx * (1 - weight);
    host.cy = host.cy * weight + piece.cy * (1 - weight);
    // Short pieces have noisy moments: the line keeps the angle of its longest piece.
    if (piece.length > host.length) host.angle = piece.angle;
    host.length += piece.length;
    host.x = Math.min(host.x, piece.x);
    host.y = Math.min(host.y, piece.y);
    host.width = right - host.x;
    host.height = bottom - host.y;
  }
  return out;
}

/** Tallest band that can be a line, as a share of the working copy's longer side. */
const MAX_LINE_HEIGHT = 0.06;

/**
 * Split a band that holds two or more lines run together (small print blurred at the working scale): cut
 * at rows of the band whose ink is well below the band's busiest rows; each part keeps its busy rows. A stroke
 * along a line's top (a frame's edge) is cut off however close, and a band too tall for a line keeps its busy
 * rows even uncut (a frame's side or a mark hanging above or below a line, joined to its end).
 */
function splitStacked(band: LineBand, mask: Raster, maxHeight: number): LineBand[] {
  if (band.height < 2.2 * Math.max(3, band.thickness / 2) || band.height < 8) return [band];
  const rows: number[] = [];
  for (let y = band.y; y < band.y + band.height; y++) {
    let count = 0;
    const row = y * mask.width;
    for (let x = band.x; x < band.x + band.width; x++) if (mask.data[row + x] !== 0) count++;
    rows.push(count);
  }
  const peak = Math.max(...rows);
  const cuts: number[] = [];
  let inValley = false;
  let valleyStart = 0;
  rows.forEach((count, i) => {
    const low = count < peak * 0.25;
    if (low && !inValley) {
      inValley = true;
      valleyStart = i;
    } else if (!low && inValley) {
      inValley = false;
      if (valleyStart > 0) cuts.push(Math.round((valleyStart + i) / 2));
    }
  });
  if (cuts.length === 0 && band.height <= maxHeight) return [band];
  const edges = [0, ...cuts, band.height];
  const parts: LineBand[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const top = edges[k] ?? 0;
    const bottom = edges[k + 1] ?? band.height;
    const slice = rows.slice(top, bottom);
    const ink = slice.reduce((sum, c) => sum + c, 0);
    if (bottom - top < 3 || ink === 0) continue;
    const first = slice.findIndex((c) => c >= peak * 0.25);
    const last = slice.length - 1 - [...slice].reverse().findIndex((c) => c >= peak * 0.25);
    const y = band.y + top + Math.max(0, first);
    const height = Math.max(3, last - Math.max(0, first) + 1);
    const centreRow = slice.reduce((sum, c, i) => sum + c * (band.y + top + i), 0) / ink;
    // A slice of a blob (a photo's texture) keeps no meaningful angle of its own.
    const angle = Math.abs(band.angle) < 0.4 ? band.angle : 0;
    parts.push({ ...band, y, height, cy: centreRow, thickness: height, angle });
  }
  return parts.length ? parts : [band];
}

/** Pieces within this angle of a direction are explained by it (radians, 3°). */
const MODE_SPREAD = (3 * Math.PI) / 180;
/**
 * Pieces askew of the dominant direction form a second one when at least two of them, together this share of
 * the working copy's longer side, lie within MODE_SPREAD of their median: two MRZ lines across a fifth of a photo.
 */
const SECOND_MODE_LENGTH = 0.2;

/** The dominant direction of the pieces, then a second one held by enough pieces askew of it (see LineAnalysis). */
function skewModes(pieces: LineBand[], reference: number): number[] {
  if (pieces.length === 0) return [];
  const first = weightedMedianAngle(pieces);
  const askew = pieces.filter((b) => Math.abs(b.angle - first) > MODE_SPREAD);
  if (askew.length < 2) return [first];
  const second = weightedMedianAngle(askew);
  const held = askew.filter((b) => Math.abs(b.angle - second) <= MODE_SPREAD);
  const length = held.reduce((s, b) => s + b.length, 0);
  return held.length >= 2 && length >= reference * SECOND_MODE_LENGTH ? [first, second] : [first];
}

function weightedMedianAngle(pieces: LineBand[]): number {
  if (pieces.length === 0) return 0;
  const sorted = [...pieces].sort((a, b) => a.angle - b.angle);
  const total = sorted.reduce((s, b) => s + b.length, 0);
  let acc = 0;
  for (const piece of sorted) {
    acc += piece.length;
    if (acc >= total / 2) return piece.angle;
  }
  return 0;
}
