/** Perspective warp of an RGB raster (inverse mapping, bilinear), used to photograph rendered cards "at an angle". */
import { fitHomography, invert3, project } from '../features/geometry/homography.js';

/** An interleaved RGB raster. */
export interface RgbRaster {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Map the raster's corners to `corners` (TL, TR, BR, BL, in output pixels) on a `width` x `height` canvas
 * filled with `background` grey.
 */
export function warpPerspective(
  src: RgbRaster,
  corners: readonly (readonly [number, number])[],
  width: number,
  height: number,
  background = 200,
): RgbRaster {
  const from = [0, 0, src.width, 0, src.width, src.height, 0, src.height];
  const to = corners.flatMap(([x, y]) => [x, y]);
  const h = fitHomography({ from, to }, [0, 1, 2, 3]);
  const inverse = h ? invert3(h) : null;
  if (!inverse) throw new Error('Degenerate warp corners');
  const out = Buffer.alloc(width * height * 3, background);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = project(inverse, x + 0.5, y + 0.5);
      if (!p) continue;
      const fx = p[0] - 0.5;
      const fy = p[1] - 0.5;
      if (fx < 0 || fy < 0 || fx > src.width - 1 || fy > src.height - 1) continue;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const x1 = Math.min(src.width - 1, x0 + 1);
      const y1 = Math.min(src.height - 1, y0 + 1);
      const dx = fx - x0;
      const dy = fy - y0;
      for (let c = 0; c < 3; c++) {
        const a = src.data[(y0 * src.width + x0) * 3 + c]!;
        const b = src.data[(y0 * src.width + x1) * 3 + c]!;
        const d = src.data[(y1 * src.width + x0) * 3 + c]!;
        const e = src.data[(y1 * src.width + x1) * 3 + c]!;
        out[(y * width + x) * 3 + c] = Math.round(
          (a * (1 - dx) + b * dx) * (1 - dy) + (d * (1 - dx) + e * dx) * dy,
        );
      }
    }
  }
  return { data: out, width, height };
}
