/** Grey image helpers for keypoint detection: contrast stretch, bilinear resize, Gaussian blur. Pure code. */

/** An 8-bit single-channel image, row-major. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Stretch the 1st..99th percentile of intensities to 0..255, so dark or washed-out photos behave like good ones. */
export function stretchContrast(image: GrayImage): GrayImage {
  const histogram = new Uint32Array(256);
  for (const v of image.data) histogram[v]!++;
  const total = image.data.length;
  let low = 0;
  let high = 255;
  for (let acc = 0; low < 255 && acc + histogram[low]! <= total * 0.01; low++) acc += histogram[low]!;
  for (let acc = 0; high > 0 && acc + histogram[high]! <= total * 0.01; high--) acc += histogram[high]!;
  if (high - low < 8) return image;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++)
    lut[v] = Math.max(0, Math.min(255, Math.round(((v - low) * 255) / (high - low))));
  const data = new Uint8Array(total);
  for (let i = 0; i < total; i++) data[i] = lut[image.data[i]!]!;
  return { data, width: image.width, height: image.height };
}

/** Bilinear resize to the given size (area-correct enough for factors down to about 1/2 per step). */
export function resizeBilinear(image: GrayImage, width: number, height: number): GrayImage {
  const out = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  const src = image.data;
  const w = image.width;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(image.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const dy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const dx = fx - x0;
      const top = src[y0 * w + x0]! * (1 - dx) + src[y0 * w + x1]! * dx;
      const bottom = src[y1 * w + x0]! * (1 - dx) + src[y1 * w + x1]! * dx;
      out[y * width + x] = Math.round(top * (1 - dy) + bottom * dy);
    }
  }
  return { data: out, width, height };
}

function kernel(sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(sigma * 2.5));
  const k = new Float32Array(radius * 2 + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    k[i + radius] = v;
    sum += v;
  }
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

/** Separable Gaussian blur with clamped borders. */
export function gaussianBlur(image: GrayImage, sigma: number): GrayImage {
  const { width, height } = image;
  const k = kernel(sigma);
  const r = (k.length - 1) / 2;
  const tmp = new Float32Array(width * height);
  const src = image.data;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= width ? width - 1 : x + i;
        acc += src[row + xx]! * k[i + r]!;
      }
      tmp[row + x] = acc;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const yy = y + i < 0 ? 0 : y + i >= height ? height - 1 : y + i;
        acc += tmp[yy * width + x]! * k[i + r]!;
      }
      out[y * width + x] = Math.round(acc);
    }
  }
  return { data: out, width, height };
}
