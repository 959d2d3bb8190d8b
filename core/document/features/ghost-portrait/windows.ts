/**
 * Pure planning of the ghost-portrait search: the face detector sees a whole card at 320x240, where a small,
 * light ghost image is a few pixels wide, so the card is scanned in windows about six ghost faces wide.
 */
import type { Region } from '../types.js';

/** Ghost faces are expected between these fractions of the main face's width. */
export const GHOST_SIZE_RANGE = { min: 0.2, max: 0.8 } as const;

/** Overlap-free test of two boxes (shared area / smaller area). */
export function overlap(a: Region, b: Region): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

/** True when `candidate` can be the ghost of `main`: smaller within range, and outside the main portrait. */
export function isGhostCandidate(main: Region, candidate: Region): boolean {
  const ratio = candidate.width / main.width;
  return ratio >= GHOST_SIZE_RANGE.min && ratio <= GHOST_SIZE_RANGE.max && overlap(main, candidate) < 0.2;
}

/**
 * Window width as a multiple of the main face's width: an expected ghost (0.4x the portrait) is then about 50 px
 * at the detector's 320 px input, which it finds surely; narrower windows read no more ghosts on rendered and real
 * cards but need about 2.5 times as many windows to cover a card.
 */
export const WINDOW_WIDTH_FACTOR = 2.4;

/**
 * Window offsets from 0 to `span`, evenly spaced at most `step` apart: a grid cut at `step` with its last window
 * pushed back inside the card would nearly repeat the one before it, at the card's edge, which is searched first.
 */
function spread(span: number, step: number): number[] {
  if (span <= 0) return [0];
  const gaps = Math.ceil(span / step);
  return Array.from({ length: gaps + 1 }, (_, i) => Math.round((i * span) / gaps));
}

/** Share of a window's area that lies inside `zone`. */
function coveredBy(window: Region, zone: Region): number {
  const w = Math.min(window.x + window.width, zone.x + zone.width) - Math.max(window.x, zone.x);
  const h = Math.min(window.y + window.height, zone.y + zone.height) - Math.max(window.y, zone.y);
  return w <= 0 || h <= 0 ? 0 : (w * h) / (window.width * window.height);
}

/**
 * Windows (4:3 in the portrait's upright frame, about 6 expected ghost faces wide, overlapping by 40%) covering the
 * card, skipping those inside the main face's box and those lying mostly (over half their area) in a `clear` zone,
 * where nothing else is printed (the MRZ's zone, ICAO 9303 part 3). The expected ghost face is 0.4 x the main face.
 * `rotation` is the clockwise quarter turn under which the portrait is upright (a card photographed sideways).
 */
export function planWindows(
  cardWidth: number,
  cardHeight: number,
  main: Region,
  widthFactor = WINDOW_WIDTH_FACTOR,
  rotation: 0 | 90 | 180 | 270 = 0,
  clear: readonly Region[] = [],
): Region[] {
  const sideways = rotation === 90 || rotation === 270;
  const upright = Math.max(120, (sideways ? main.height : main.width) * widthFactor);
  const width = Math.round(Math.min(cardWidth, sideways ? (upright * 3) / 4 : upright));
  const height = Math.round(Math.min(cardHeight, sideways ? upright : (width * 3) / 4));
  // A ghost face is about a sixth of a window wide: a 0.6 step puts each one wholly inside some window.
  const stepX = Math.max(1, Math.round(width * 0.6));
  const stepY = Math.max(1, Math.round(height * 0.6));
  const xs = spread(cardWidth - width, stepX);
  const ys = spread(cardHeight - height, stepY);
  const windows: Region[] = [];
  for (const y of ys) {
    for (const x of xs) {
      const window = { x, y, width, height };
      if (overlap(window, main) > 0.9 || clear.some((zone) => coveredBy(window, zone) > 0.5)) continue;
      windows.push(window);
    }
  }
  // Ghost images are printed away from the main portrait: visit the farthest windows first, so the scan that
  // stops at a sure match usually stops early.
  const cx = main.x + main.width / 2;
  const cy = main.y + main.height / 2;
  const distance = (w: Region): number => Math.hypot(w.x + w.width / 2 - cx, w.y + w.height / 2 - cy);
  return windows.sort((a, b) => distance(b) - distance(a));
}

/** Map the cosine similarity of main and ghost embeddings to [0,1]: 0 at 0.25 or below, 1 from 0.7 up. */
export function ghostScore(similarity: number): number {
  return Math.min(1, Math.max(0, (similarity - 0.25) / 0.45));
}
