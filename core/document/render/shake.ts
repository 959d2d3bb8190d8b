/**
 * A document page photographed by a hand that moved: every point smeared evenly along a short straight path, the
 * motion blur of a camera shaken during the exposure.
 */
import sharp from 'sharp';

/**
 * The kernel of a straight smear `length` pixels long at `degrees` from the rows: the path sampled finely, each
 * sample's weight spread over the four pixels round it, normalised to sum to one.
 */
export function smearKernel(
  length: number,
  degrees: number,
): { width: number; height: number; kernel: number[] } {
  const reach = Math.max(1, Math.ceil(length / 2));
  const size = 2 * reach + 1;
  const kernel = new Array<number>(size * size).fill(0);
  const ux = Math.cos((degrees * Math.PI) / 180);
  const uy = Math.sin((degrees * Math.PI) / 180);
  const steps = Math.max(8, Math.ceil(length * 8));
  for (let i = 0; i <= steps; i++) {
    const t = (i / steps - 0.5) * length;
    const x = reach + t * ux;
    const y = reach + t * uy;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const spread: [number, number, number][] = [
      [x0, y0, (1 - fx) * (1 - fy)],
      [x0 + 1, y0, fx * (1 - fy)],
      [x0, y0 + 1, (1 - fx) * fy],
      [x0 + 1, y0 + 1, fx * fy],
    ];
    for (const [px, py, w] of spread)
      if (px >= 0 && px < size && py >= 0 && py < size) kernel[py * size + px]! += w;
  }
  const sum = kernel.reduce((a, b) => a + b, 0);
  return { width: size, height: size, kernel: kernel.map((v) => v / sum) };
}

/**
 * A page (any image sharp reads) smeared `length` pixels at `degrees` from its rows (0 along its lines of text, 90
 * across them), as a JPEG on white paper.
 */
export async function shaken(page: Buffer, length: number, degrees: number): Promise<Buffer> {
  return sharp(page)
    .rotate()
    .flatten({ background: '#ffffff' })
    .convolve(smearKernel(length, degrees))
    .jpeg({ quality: 90 })
    .toBuffer();
}
