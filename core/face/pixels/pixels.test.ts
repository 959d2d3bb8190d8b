import { describe, expect, it } from 'vitest';
import type { Raster } from '../types.js';
import { exposure, laplacianVariance } from './metrics.js';
import { toChw } from './tensor.js';
import { flipHorizontal, rectToOutput, toGray, warpAffine } from './warp-affine.js';

const rgb2x1: Raster = { data: Uint8Array.from([10, 20, 30, 200, 100, 0]), width: 2, height: 1, channels: 3 };

describe('toChw', () => {
  it('makes planes in RGB order with (v - mean) / std', () => {
    expect(Array.from(toChw(rgb2x1, { order: 'rgb', mean: 127.5, std: 128 }))).toEqual(
      [10, 200, 20, 100, 30, 0].map((v) => (v - 127.5) / 128),
    );
  });
  it('reverses channels for BGR models', () => {
    expect(Array.from(toChw(rgb2x1, { order: 'bgr', mean: 0, std: 1 }))).toEqual([30, 0, 20, 100, 10, 200]);
  });
});

describe('warpAffine', () => {
  const ramp: Raster = {
    data: Uint8Array.from([0, 100, 200, 0, 100, 200]),
    width: 3,
    height: 2,
    channels: 1,
  };
  it('reproduces the source under the identity', () => {
    expect(Array.from(warpAffine(ramp, [1, 0, 0, 0, 1, 0], 3, 2).data)).toEqual([0, 100, 200, 0, 100, 200]);
  });
  it('interpolates bilinearly and fills outside', () => {
    // Shift by half a pixel: samples fall between columns.
    expect(Array.from(warpAffine(ramp, [1, 0, 0.5, 0, 1, 0], 3, 1, 0).data)).toEqual([50, 150, 100]);
  });
  it('downsamples a rectangle to an output size', () => {
    const out = warpAffine(ramp, rectToOutput(0, 0, 3, 2, 3, 2), 3, 2);
    expect(out.data[1]).toBe(100);
  });
  it('mirrors left to right and converts to grey (BT.601)', () => {
    expect(Array.from(flipHorizontal(ramp).data)).toEqual([200, 100, 0, 200, 100, 0]);
    expect(Array.from(toGray(rgb2x1).data)).toEqual([18, 119]);
  });
});

describe('quality metrics', () => {
  it('gives a flat image zero Laplacian variance and a checkerboard a large one', () => {
    const flat: Raster = { data: new Uint8Array(25).fill(90), width: 5, height: 5, channels: 1 };
    expect(laplacianVariance(flat)).toBe(0);
    const checker: Raster = {
      data: Uint8Array.from({ length: 25 }, (_, i) => (((i % 5) + Math.floor(i / 5)) % 2 ? 255 : 0)),
      width: 5,
      height: 5,
      channels: 1,
    };
    // Every interior Laplacian is +-1020, alternating: variance 1020^2 minus the squared mean (9 values: 5 of one sign).
    const mean = (5 * 1020 - 4 * 1020) / 9;
    expect(laplacianVariance(checker)).toBeCloseTo(1020 ** 2 - mean ** 2, 6);
  });
  it('measures the mean and clipped shares', () => {
    const g: Raster = { data: Uint8Array.from([0, 10, 128, 250]), width: 4, height: 1, channels: 1 };
    expect(exposure(g)).toEqual({ mean: 97, darkShare: 0.5, brightShare: 0.25 });
  });
});
