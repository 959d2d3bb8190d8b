import { describe, expect, it } from 'vitest';
import { DOCUMENT_LONG_SIDE, FACE_LONG_SIDE, FINGERPRINT_MAX_SIDE, workingSize } from './working-size.js';

describe('workingSize', () => {
  it('keeps full resolution without a purpose and for images within the working size', () => {
    expect(workingSize({ width: 7296, height: 5472 }, [])).toMatchObject({ width: 7296, scale: 1 });
    expect(workingSize({ width: 1200, height: 900 }, ['face'])).toMatchObject({
      width: 1200,
      height: 900,
      scale: 1,
    });
  });

  it('brings a face or document photo to its long side, a card used by both to the larger', () => {
    const photo = { width: 7296, height: 5472 };
    expect(workingSize(photo, ['face'])).toMatchObject({ width: FACE_LONG_SIDE, height: 1920 });
    expect(workingSize(photo, ['document'])).toMatchObject({ width: DOCUMENT_LONG_SIDE, height: 2304 });
    expect(workingSize(photo, ['face', 'document'])).toMatchObject({ width: DOCUMENT_LONG_SIDE });
    expect(workingSize({ width: 3000, height: 9000 }, ['face'])).toMatchObject({
      width: 853,
      height: FACE_LONG_SIDE,
    });
  });

  it('never narrows a long, thin image below the shortest usable side', () => {
    expect(workingSize({ width: 16, height: 65000 }, ['document'])).toMatchObject({
      width: 16,
      height: 65000,
      scale: 1,
    });
    expect(workingSize({ width: 100, height: 40000 }, ['document'], 16)).toMatchObject({
      width: 16,
      height: 6400,
    });
  });

  it('brings a finer fingerprint scan to 500 dpi and trusts no placeholder density', () => {
    expect(workingSize({ width: 800, height: 1000, dpi: 1000 }, ['fingerprint'])).toMatchObject({
      width: 400,
      height: 500,
      scale: 0.5,
    });
    expect(workingSize({ width: 800, height: 1000, dpi: 72 }, ['fingerprint'])).toMatchObject({ scale: 1 });
    expect(workingSize({ width: 300, height: 300, dpi: 300 }, ['fingerprint'])).toMatchObject({ scale: 1 });
  });

  it('cuts an oversized fingerprint image to its centre at its own scale', () => {
    const big = workingSize({ width: 7296, height: 5472 }, ['fingerprint']);
    expect(big).toMatchObject({ width: FINGERPRINT_MAX_SIDE, height: FINGERPRINT_MAX_SIDE, scale: 1 });
    expect(big.region).toEqual({ left: 2624, top: 1712, width: 2048, height: 2048 });
    const fine = workingSize({ width: 6000, height: 1000, dpi: 1000 }, ['fingerprint']);
    expect(fine).toMatchObject({ width: FINGERPRINT_MAX_SIDE, height: 500, scale: 0.5 });
    expect(fine.region).toEqual({ left: 952, top: 0, width: 4096, height: 1000 });
  });
});
