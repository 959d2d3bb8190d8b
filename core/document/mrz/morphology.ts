/** A single-channel 8-bit raster, row-major. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Running min or max over a window of `size` along rows (`horizontal`) or columns, edges clamped:
 * van Herk / Gil-Werman, three comparisons per pixel whatever the window size.
 */
function extremum1d(src: Raster, size: number, horizontal: boolean, max: boolean): Raster {
  const { width, height } = src;
  const data = src.data;
  const out = new Uint8Array(width * height);
  const half = Math.floor(size / 2);
  const k = 2 * half + 1;
  const lines = horizontal ? height : width;
  const length = horizontal ? width : height;
  const stride = horizontal ? 1 : width;
  const padded = length + 2 * half;
  const cells = Math.ceil(padded / k) * k;
  const line = new Uint8Array(cells);
  const forward = new Uint8Array(cells);
  const backward = new Uint8Array(cells);
  for (let l = 0; l < lines; l++) {
    const base = horizontal ? l * width : l;
    const first = data[base]!;
    const last = data[base + (length - 1) * stride]!;
    for (let i = 0; i < cells; i++) {
      const j = i - half;
      line[i] = j < 0 ? first : j >= length ? last : data[base + j * stride]!;
    }
    if (max) {
      for (let b = 0; b < cells; b += k) {
        let f = 0;
        for (let i = b; i < b + k; i++) forward[i] = f = i === b || line[i]! > f ? line[i]! : f;
        let g = 0;
        for (let i = b + k - 1; i >= b; i--) backward[i] = g = i === b + k - 1 || line[i]! > g ? line[i]! : g;
      }
      for (let i = 0; i < length; i++) {
        const a = backward[i]!;
        const c = forward[i + k - 1]!;
        out[base + i * stride] = a > c ? a : c;
      }
    } else {
      for (let b = 0; b < cells; b += k) {
        let f = 0;
        for (let i = b; i < b + k; i++) forward[i] = f = i === b || line[i]! < f ? line[i]! : f;
        let g = 0;
        for (let i = b + k - 1; i >= b; i--) backward[i] = g = i === b + k - 1 || line[i]! < g ? line[i]! : g;
      }
      // Window [i, i + k - 1] of the padded line is centred on output pixel i.
      for (let i = 0; i < length; i++) {
        const a = backward[i]!;
        const c = forward[i + k - 1]!;
        out[base + i * stride] = a < c ? a : c;
      }
    }
  }
  return { width, height, data: out };
}

/** Grey dilation (max) with a `w`×`h` rectangle (a side under 2 leaves that direction alone). */
export function dilate(src: Raster, w: number, h: number): Raster {
  const rows = w >= 2 ? extremum1d(src, w, true, true) : src;
  return h >= 2 ? extremum1d(rows, h, false, true) : rows;
}

/** Grey erosion (min) with a `w`×`h` rectangle (a side under 2 leaves that direction alone). */
export function erode(src: Raster, w: number, h: number): Raster {
  const rows = w >= 2 ? extremum1d(src, w, true, false) : src;
  return h >= 2 ? extremum1d(rows, h, false, false) : rows;
}

/** Count of each value 0–255 in 8-bit data. */
export function histogram(data: Uint8Array): Float64Array {
  const hist = new Float64Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]!]!++;
  return hist;
}

/** Otsu's threshold of 8-bit data. */
export function otsuThreshold(data: Uint8Array): number {
  return otsuOfHistogram(histogram(data));
}

/** Otsu's threshold of a 256-bin histogram: the value that best separates the two classes. */
export function otsuOfHistogram(hist: Float64Array): number {
  let total = 0;
  let sumAll = 0;
  for (let t = 0; t < 256; t++) {
    total += hist[t] ?? 0;
    sumAll += t * (hist[t] ?? 0);
  }
  let sumBack = 0;
  let weightBack = 0;
  let best = 0;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    weightBack += hist[t] ?? 0;
    if (weightBack === 0) continue;
    const weightFore = total - weightBack;
    if (weightFore === 0) break;
    sumBack += t * (hist[t] ?? 0);
    const meanBack = sumBack / weightBack;
    const meanFore = (sumAll - sumBack) / weightFore;
    const variance = weightBack * weightFore * (meanBack - meanFore) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}
