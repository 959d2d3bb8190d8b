import type { LineBand } from './locate.js';
import type { Raster } from './morphology.js';

/** Connected components (4-neighbour) of a 0/255 mask, each with its box and the moments of its ink. */
export function components(mask: Raster): LineBand[] {
  const { width, height, data } = mask;
  const label = new Int32Array(width * height);
  const bands: LineBand[] = [];
  const stack: number[] = [];
  let next = 0;
  const visit = (q: number): void => {
    label[q] = next;
    stack.push(q);
  };
  for (let start = 0; start < data.length; start++) {
    if (data[start] === 0 || label[start] !== 0) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let n = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    while (stack.length) {
      const p = stack.pop() ?? 0;
      const x = p % width;
      const y = (p - x) / width;
      n++;
      sx += x;
      sy += y;
      sxx += x * x;
      syy += y * y;
      sxy += x * y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x > 0 && data[p - 1] !== 0 && label[p - 1] === 0) visit(p - 1);
      if (x < width - 1 && data[p + 1] !== 0 && label[p + 1] === 0) visit(p + 1);
      if (y > 0 && data[p - width] !== 0 && label[p - width] === 0) visit(p - width);
      if (y < height - 1 && data[p + width] !== 0 && label[p + width] === 0) visit(p + width);
    }
    const cx = sx / n;
    const cy = sy / n;
    const mu20 = sxx / n - cx * cx;
    const mu02 = syy / n - cy * cy;
    const mu11 = sxy / n - cx * cy;
    const spread = Math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2);
    const major = (mu20 + mu02) / 2 + spread;
    const minor = Math.max(0, (mu20 + mu02) / 2 - spread);
    bands.push({
      x: x0,
      y: y0,
      width: x1 - x0 + 1,
      height: y1 - y0 + 1,
      angle: 0.5 * Math.atan2(2 * mu11, mu20 - mu02),
      cx,
      cy,
      length: Math.sqrt(12 * major),
      thickness: Math.sqrt(12 * minor) + 1,
    });
  }
  return bands;
}
