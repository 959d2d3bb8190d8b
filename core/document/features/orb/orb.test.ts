import { describe, expect, it } from 'vitest';
import { ransacHomography } from '../geometry/ransac.js';
import { project } from '../geometry/homography.js';
import { detectFast } from './fast.js';
import { hamming, matchRatio } from './hamming.js';
import { extractOrb } from './orb.js';
import type { GrayImage } from './gray-image.js';

function blank(width: number, height: number, value: number): GrayImage {
  return { data: new Uint8Array(width * height).fill(value), width, height };
}

function fillRect(image: GrayImage, x0: number, y0: number, w: number, h: number, value: number): void {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) image.data[y * image.width + x] = value;
}

/** Deterministic clutter of rectangles: corners everywhere, no symmetry. */
function texture(size: number): GrayImage {
  const image = blank(size, size, 128);
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let i = 0; i < 120; i++)
    fillRect(image, next(size - 30), next(size - 30), 6 + next(24), 6 + next(24), next(256));
  return image;
}

function rotate90(image: GrayImage): GrayImage {
  // (x, y) -> (height - 1 - y, x): a clockwise quarter turn.
  const out = blank(image.height, image.width, 0);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++)
      out.data[x * out.width + (image.height - 1 - y)] = image.data[y * image.width + x]!;
  }
  return out;
}

describe('FAST', () => {
  it('finds the four corners of a bright square and nothing on flat ground', () => {
    const image = blank(100, 100, 30);
    fillRect(image, 30, 30, 40, 40, 220);
    const corners = detectFast(image, 20, 5);
    for (const [cx, cy] of [
      [30, 30],
      [69, 30],
      [30, 69],
      [69, 69],
    ] as const) {
      expect(corners.some((c) => Math.abs(c.x - cx) <= 2 && Math.abs(c.y - cy) <= 2)).toBe(true);
    }
    expect(
      corners.every(
        (c) =>
          (Math.abs(c.x - 30) <= 3 || Math.abs(c.x - 69) <= 3) &&
          (Math.abs(c.y - 30) <= 3 || Math.abs(c.y - 69) <= 3),
      ),
    ).toBe(true);
    expect(detectFast(blank(60, 60, 90), 20, 5)).toHaveLength(0);
  });
});

describe('Hamming matching', () => {
  it('counts differing bits and keeps only unambiguous matches', () => {
    const a = new Uint32Array(16);
    const b = new Uint32Array(16);
    a[0] = 0xffffffff;
    b[0] = 0xfffffffe;
    b[8 + 3] = 0x0f0f0f0f;
    expect(hamming(a, 0, b, 0)).toBe(1);
    expect(hamming(a, 1, b, 1)).toBe(16);
    // Query 0 is 1 bit from train 0 and 32 from train 1: a clear match.
    expect(matchRatio(a.subarray(0, 8), b, 0.8, 64)).toEqual([{ query: 0, train: 0, distance: 1 }]);
    // Two equally near candidates: rejected by the ratio test.
    expect(
      matchRatio(a.subarray(0, 8), new Uint32Array([...b.subarray(0, 8), ...b.subarray(0, 8)]), 0.8, 64),
    ).toEqual([]);
  });
});

describe('ORB', () => {
  it('matches a textured image to its quarter-turned copy with a consistent homography', () => {
    const image = texture(240);
    const turned = rotate90(image);
    const a = extractOrb(image);
    const b = extractOrb(turned);
    expect(a.count).toBeGreaterThan(100);
    const matches = matchRatio(a.descriptors, b.descriptors, 0.8, 64);
    expect(matches.length).toBeGreaterThan(40);
    const from: number[] = [];
    const to: number[] = [];
    for (const m of matches) {
      from.push(a.points[m.query * 2]!, a.points[m.query * 2 + 1]!);
      to.push(b.points[m.train * 2]!, b.points[m.train * 2 + 1]!);
    }
    const fit = ransacHomography({ from, to }, { threshold: 3 })!;
    expect(fit.inliers.length / matches.length).toBeGreaterThan(0.6);
    const [x, y] = project(fit.homography, 50, 80)!;
    expect(Math.abs(x - (239 - 80))).toBeLessThan(2);
    expect(Math.abs(y - 50)).toBeLessThan(2);
  });
});
