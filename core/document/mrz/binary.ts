import type { Raster } from './morphology.js';

/**
 * Binary morphology with straight segments on 0/255 masks, run by run: a closing with a segment of `size`
 * fills gaps of fewer than `size` pixels between ink; an opening removes runs of ink shorter than `size`.
 * Same result as the grey van Herk operations on a mask, a few times faster.
 */

/** Fill gaps shorter than `size` between ink along each row. */
export function closeRows(mask: Raster, size: number): Raster {
  const { width, height } = mask;
  const data = Uint8Array.from(mask.data);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let lastInk = -1;
    for (let x = 0; x < width; x++) {
      if (data[row + x] === 0) continue;
      if (lastInk >= 0 && x - lastInk - 1 > 0 && x - lastInk - 1 < size)
        data.fill(255, row + lastInk + 1, row + x);
      lastInk = x;
    }
  }
  return { width, height, data };
}

/** Remove runs of ink shorter than `size` along each row. */
export function openRows(mask: Raster, size: number): Raster {
  const { width, height } = mask;
  const data = Uint8Array.from(mask.data);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const ink = x < width && data[row + x] !== 0;
      if (ink && start < 0) start = x;
      else if (!ink && start >= 0) {
        if (x - start < size) data.fill(0, row + start, row + x);
        start = -1;
      }
    }
  }
  return { width, height, data };
}

/** Remove runs of ink shorter than `size` along each column. */
export function openColumns(mask: Raster, size: number): Raster {
  const { width, height } = mask;
  const data = Uint8Array.from(mask.data);
  // Run length so far per column, row by row (cache-friendly), and each open run's first row.
  const length = new Int32Array(width);
  for (let y = 0; y <= height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const ink = y < height && data[row + x] !== 0;
      if (ink) {
        length[x]!++;
        continue;
      }
      const run = length[x]!;
      if (run > 0 && run < size) for (let k = y - run; k < y; k++) data[k * width + x] = 0;
      length[x] = 0;
    }
  }
  return { width, height, data };
}

/** The mask with rows and columns swapped (a quarter turn mirrored: lines across become lines along). */
export function transpose(src: Raster): Raster {
  const { width, height, data } = src;
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) out[x * height + y] = data[row + x]!;
  }
  return { width: height, height: width, data: out };
}
