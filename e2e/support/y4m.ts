import sharp from 'sharp';

/**
 * A YUV4MPEG2 (4:2:0) clip of a still image, for Chromium's --use-file-for-fake-video-capture: `frames` copies of
 * the picture scaled to cover width x height.
 */
export async function stillToY4m(input: Buffer, width: number, height: number, frames = 2): Promise<Buffer> {
  const { data } = await sharp(input)
    .resize(width, height, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ySize = width * height;
  const cSize = (width / 2) * (height / 2);
  const frame = Buffer.alloc(ySize + 2 * cSize);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const r = data[o] ?? 0;
      const g = data[o + 1] ?? 0;
      const b = data[o + 2] ?? 0;
      frame[y * width + x] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (y % 2 === 0 && x % 2 === 0) {
        const c = (y / 2) * (width / 2) + x / 2;
        frame[ySize + c] = Math.max(
          0,
          Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)),
        );
        frame[ySize + cSize + c] = Math.max(
          0,
          Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)),
        );
      }
    }
  }
  const parts = [Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`)];
  for (let i = 0; i < frames; i++) parts.push(Buffer.from('FRAME\n'), frame);
  return Buffer.concat(parts);
}
