/**
 * Photometric verification of a mark match: the registered mark's small grey template is compared, through the
 * found homography, with the card pixels it lands on (normalised cross-correlation, so lighting does not matter).
 * A look-alike emblem can share an outline, colours and a banner with the genuine one, and so a plausible
 * homography; it cannot share its picture. Pure code.
 */
import { resizeBilinear, type GrayImage } from '../orb/gray-image.js';
import { project } from '../geometry/homography.js';

/** Longest side of the stored template. */
export const TEMPLATE_SIZE = 80;

/** A mark's grey template, drawn from the registered image. */
export interface MarkTemplate {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Reduce a registered mark image to its template. */
export function makeTemplate(image: GrayImage): MarkTemplate {
  const scale = TEMPLATE_SIZE / Math.max(image.width, image.height);
  if (scale >= 1) return { data: Uint8Array.from(image.data), width: image.width, height: image.height };
  return resizeBilinear(
    image,
    Math.max(8, Math.round(image.width * scale)),
    Math.max(8, Math.round(image.height * scale)),
  );
}

function sample(image: GrayImage, x: number, y: number): number | null {
  if (x < 0 || y < 0 || x > image.width - 1 || y > image.height - 1) return null;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(image.width - 1, x0 + 1);
  const y1 = Math.min(image.height - 1, y0 + 1);
  const dx = x - x0;
  const dy = y - y0;
  const d = image.data;
  const w = image.width;
  return (
    (d[y0 * w + x0]! * (1 - dx) + d[y0 * w + x1]! * dx) * (1 - dy) +
    (d[y1 * w + x0]! * (1 - dx) + d[y1 * w + x1]! * dx) * dy
  );
}

/**
 * NCC in [-1, 1] between the template and the card under homography `h` (mark pixels -> card pixels), over
 * template pixels that land on the card; null when fewer than half do.
 */
export function templateCorrelation(
  template: MarkTemplate,
  markSize: { width: number; height: number },
  h: ArrayLike<number>,
  card: GrayImage,
): number | null {
  const sx = markSize.width / template.width;
  const sy = markSize.height / template.height;
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let v = 0; v < template.height; v++) {
    for (let u = 0; u < template.width; u++) {
      const p = project(h, (u + 0.5) * sx, (v + 0.5) * sy);
      const b = p ? sample(card, p[0], p[1]) : null;
      if (b === null) continue;
      const a = template.data[v * template.width + u]!;
      n++;
      sa += a;
      sb += b;
      saa += a * a;
      sbb += b * b;
      sab += a * b;
    }
  }
  if (n < (template.width * template.height) / 2) return null;
  const cov = sab - (sa * sb) / n;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  if (va <= 1e-9 || vb <= 1e-9) return 0;
  return cov / Math.sqrt(va * vb);
}
