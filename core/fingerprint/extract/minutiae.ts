import { wrapAngle } from '../match/geometry.js';
import { neighbourCode, neighbourOffsets, transitions } from './skeleton.js';
import { SkeletonWalker, type TracePath } from './trace.js';

/** A minutia in working coordinates: x right, y down, `dir` in radians measured from x towards y. */
export interface RawMinutia {
  x: number;
  y: number;
  dir: number;
  bifurcation: boolean;
  /** Traces from the minutia (one for an ending, three for a bifurcation). */
  paths: TracePath[];
  removed: boolean;
}

/** Pixels walked to measure a minutia's direction (about one ridge period). */
const DIRECTION_STEPS = 10;
/** Pixels walked to find neighbouring minutiae on the same ridge. */
const TRACE_STEPS = 22;

function pathDirection(width: number, start: number, path: TracePath): { dx: number; dy: number } {
  const n = Math.min(path.pixels.length, DIRECTION_STEPS);
  // Average the vectors to the first n pixels: less sensitive to one kinked pixel than the end point alone.
  let dx = 0;
  let dy = 0;
  const sx = start % width;
  const sy = (start / width) | 0;
  for (let k = Math.max(0, n - 4); k < n; k++) {
    const p = path.pixels[k]!;
    dx += (p % width) - sx;
    dy += ((p / width) | 0) - sy;
  }
  return { dx, dy };
}

/**
 * Skeleton pixels with crossing number 1 or 3, in raster order. A tight scan on its own: ridge pixels (crossing
 * number 2) are most of the skeleton, and the walks and allocations for the few candidates stay out of this loop.
 */
function candidates(skeleton: Uint8Array, width: number, height: number, offsets: Int32Array): Int32Array {
  let found = new Int32Array(256);
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let i = y * width + 1, end = y * width + width - 1; i < end; i++) {
      if (!skeleton[i]) continue;
      const a = transitions(neighbourCode(skeleton, i, offsets));
      if (a !== 1 && a !== 3) continue;
      if (n === found.length) {
        const grown = new Int32Array(2 * n);
        grown.set(found);
        found = grown;
      }
      found[n++] = i;
    }
  }
  return found.subarray(0, n);
}

/**
 * Find ridge endings (crossing number 1) and bifurcations (crossing number 3) on the skeleton, inside `inside`
 * (a per-pixel predicate for the usable foreground), with directions from a short walk along the ridge:
 * an ending points out of its ridge, a bifurcation points along its stem away from the fork.
 */
export function detectMinutiae(
  skeleton: Uint8Array,
  width: number,
  height: number,
  inside: (x: number, y: number) => boolean,
): RawMinutia[] {
  const offsets = neighbourOffsets(width);
  const walker = new SkeletonWalker(skeleton, offsets);
  const out: RawMinutia[] = [];
  const taken = new Uint8Array(skeleton.length);
  for (const i of candidates(skeleton, width, height, offsets)) {
    const x = i % width;
    const y = (i - x) / width;
    if (!inside(x, y)) continue;
    const a = transitions(neighbourCode(skeleton, i, offsets));
    // Adjacent junction pixels describe one fork: keep the first.
    let clustered = false;
    if (a === 3) for (let k = 0; k < 8; k++) if (taken[i + offsets[k]!]) clustered = true;
    if (clustered) continue;
    const starts = walker.branches(i);
    const paths = starts.map((s) => walker.walk(i, s, TRACE_STEPS));
    if (a === 1 && paths.length === 1) {
      const d = pathDirection(width, i, paths[0]!);
      out.push({ x, y, dir: Math.atan2(-d.dy, -d.dx), bifurcation: false, paths, removed: false });
    } else if (a === 3 && paths.length === 3) {
      const v = paths.map((p) => pathDirection(width, i, p));
      const ang = v.map((d) => Math.atan2(d.dy, d.dx));
      // The two branches of a fork run nearly parallel; the stem is the odd one out.
      let stem = 0;
      let closest = Infinity;
      for (let k = 0; k < 3; k++) {
        const d = Math.abs(wrapAngle(ang[(k + 1) % 3]! - ang[(k + 2) % 3]!));
        if (d < closest) {
          closest = d;
          stem = k;
        }
      }
      out.push({ x, y, dir: ang[stem]!, bifurcation: true, paths, removed: false });
      taken[i] = 1;
    }
  }
  return out;
}
