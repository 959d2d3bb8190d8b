/**
 * A document page bent as a passport's data page is when photographed open: it curls towards its binding, so its
 * lines of text are arcs, not straight lines.
 */
import sharp from 'sharp';

/** Where a bent page's rows rise: its two sides above its middle, or one side above the other. */
export type Curl = 'sides' | 'side';

/**
 * A page (any image sharp reads) with each column moved up by `rise` pixels times the square of its distance from
 * the middle (`sides`, the middle the lowest) or from the left edge (`side`), as a JPEG on white paper.
 */
export async function bent(page: Buffer, rise: number, curl: Curl): Promise<Buffer> {
  const { data, info } = await sharp(page).rotate().flatten({ background: '#ffffff' }).raw().toBuffer({
    resolveWithObject: true,
  });
  const { width, height, channels } = info;
  const margin = Math.ceil(Math.abs(rise)) + 2;
  const tall = height + 2 * margin;
  const out = Buffer.alloc(width * tall * channels, 255);
  for (let x = 0; x < width; x++) {
    const u = curl === 'sides' ? (2 * x) / Math.max(1, width - 1) - 1 : x / Math.max(1, width - 1);
    // Down by the rise at the lowest point, so the page stays within the margins.
    const shift = rise * (1 - u * u) - rise / 2;
    for (let y = 0; y < tall; y++) {
      const from = y - margin - shift;
      const y0 = Math.floor(from);
      const f = from - y0;
      for (let c = 0; c < channels; c++) {
        const a = y0 >= 0 && y0 < height ? data[(y0 * width + x) * channels + c]! : 255;
        const b = y0 + 1 >= 0 && y0 + 1 < height ? data[((y0 + 1) * width + x) * channels + c]! : 255;
        out[(y * width + x) * channels + c] = Math.round(a * (1 - f) + b * f);
      }
    }
  }
  return sharp(out, { raw: { width, height: tall, channels } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
