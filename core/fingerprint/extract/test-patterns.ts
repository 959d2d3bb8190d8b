import type { GrayImage } from '../types.js';

/**
 * Test fixture: dark parallel ridges of the given period running along direction `theta` (image terms: x right,
 * y down, measured towards y). With `minutia`, a phase spiral centred there adds one dark ridge on the side that
 * (cos theta, sin theta) points to: a single ridge ending sits at that point and, in ISO terms, points that way.
 */
export function renderRidges(
  size: number,
  period: number,
  theta: number,
  minutia?: { x: number; y: number },
): GrayImage {
  const data = new Uint8Array(size * size);
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const across = -x * uy + y * ux;
      let phase = (2 * Math.PI * across) / period;
      if (minutia) {
        const a = -(x - minutia.x) * uy + (y - minutia.y) * ux;
        const l = (x - minutia.x) * ux + (y - minutia.y) * uy;
        // One full turn of phase around the centre: one more ridge on one side than on the other.
        phase += Math.atan2(a, l);
      }
      data[y * size + x] = Math.round(128 - 100 * Math.cos(phase));
    }
  }
  return { width: size, height: size, data };
}
