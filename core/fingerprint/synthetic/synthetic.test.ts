import { describe, expect, it } from 'vitest';
import { decodeImage, rgbToGray } from '../../imaging/decode.js';
import { extractFeatures } from '../extract/index.js';
import { encodeGrayBmp, encodeGrayPng, syntheticFingerprint } from './index.js';
import { syntheticFeatureRecord } from './minutiae-sets.js';

describe('synthetic fingerprints', () => {
  it('are deterministic per finger seed and impression', () => {
    const a = syntheticFingerprint(11, 2);
    const b = syntheticFingerprint(11, 2);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
    expect(Buffer.from(syntheticFingerprint(11, 3).data).equals(Buffer.from(a.data))).toBe(false);
    expect(Buffer.from(syntheticFingerprint(12, 2).data).equals(Buffer.from(a.data))).toBe(false);
  });

  it('render dark ridges on a light background with ridge-like contrast', () => {
    const image = syntheticFingerprint(5, 0);
    expect(image.data.length).toBe(image.width * image.height);
    const centre = image.data.subarray(
      (image.height / 2) * image.width,
      (image.height / 2 + 1) * image.width,
    );
    const dark = centre.filter((v) => v < 110).length;
    const light = centre.filter((v) => v > 170).length;
    expect(dark).toBeGreaterThan(40);
    expect(light).toBeGreaterThan(40);
    expect(image.data[0]).toBeGreaterThan(190);
  });

  it('give the extractor a usable print', () => {
    const features = extractFeatures(syntheticFingerprint(7, 1));
    expect(features.minutiae.length).toBeGreaterThan(15);
    expect(features.quality).toBeGreaterThan(40);
  });

  it('renders an impression of a cached finger quickly', () => {
    syntheticFingerprint(21, 0);
    const started = performance.now();
    syntheticFingerprint(21, 1);
    // Generous bound for a loaded 2-core CI machine; typical is ~20 ms.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('write PNG and BMP files that the upload decoder reads back pixel for pixel', async () => {
    const image = syntheticFingerprint(3, 4);
    for (const bytes of [encodeGrayPng(image, 500), encodeGrayBmp(image)]) {
      const decoded = await decodeImage(bytes, { field: 'file' });
      expect([decoded.width, decoded.height]).toEqual([image.width, image.height]);
      expect(
        Buffer.from(rgbToGray(decoded.rgb, decoded.width, decoded.height)).equals(Buffer.from(image.data)),
      ).toBe(true);
    }
    expect((await decodeImage(encodeGrayPng(image, 500), { field: 'file' })).dpi).toBeCloseTo(500, 0);
  });

  it('draws deterministic feature records for gallery benchmarks', () => {
    const a = syntheticFeatureRecord(99);
    expect(a).toEqual(syntheticFeatureRecord(99));
    expect(a).not.toEqual(syntheticFeatureRecord(100));
    expect(a.minutiae.length).toBeGreaterThanOrEqual(15);
    for (const m of a.minutiae) expect(m.angle).toBeGreaterThanOrEqual(0);
  });
});
