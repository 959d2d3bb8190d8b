/** A single-channel 8-bit raster, row-major. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A window of `size` (made odd: `k`, `half` each side) over `length` pixels padded by `half` each end, in whole windows. */
function windowOf(size: number, length: number): { half: number; k: number; cells: number } {
  const half = Math.floor(size / 2);
  const k = 2 * half + 1;
  return { half, k, cells: Math.ceil((length + 2 * half) / k) * k };
}

/**
 * Running min or max over a window of `size` along each row, edges clamped: van Herk / Gil-Werman, three
 * comparisons per pixel whatever the window size. (The loops are written out for max and min: a comparison
 * passed as a function is several times slower.)
 */
function rowsExtremum(src: Raster, size: number, max: boolean): Raster {
  const { width, height, data } = src;
  const { half, k, cells } = windowOf(size, width);
  const out = new Uint8Array(width * height);
  const line = new Uint8Array(cells);
  const forward = new Uint8Array(cells);
  const backward = new Uint8Array(cells);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    line.fill(data[base]!, 0, half);
    line.set(data.subarray(base, base + width), half);
    line.fill(data[base + width - 1]!, half + width);
    for (let b = 0; b < cells; b += k) {
      const e = b + k - 1;
      let f = (forward[b] = line[b]!);
      let g = (backward[e] = line[e]!);
      if (max) {
        for (let i = b + 1; i <= e; i++) forward[i] = f = line[i]! > f ? line[i]! : f;
        for (let i = e - 1; i >= b; i--) backward[i] = g = line[i]! > g ? line[i]! : g;
      } else {
        for (let i = b + 1; i <= e; i++) forward[i] = f = line[i]! < f ? line[i]! : f;
        for (let i = e - 1; i >= b; i--) backward[i] = g = line[i]! < g ? line[i]! : g;
      }
    }
    // Window [i, i + k - 1] of the padded row is centred on output pixel i.
    for (let i = 0; i < width; i++) {
      const a = backward[i]!;
      const c = forward[i + k - 1]!;
      out[base + i] = max === a > c ? a : c;
    }
  }
  return { width, height, data: out };
}

/** The same down each column, all columns at once row after row (memory order: a column walk misses the cache). */
function columnsExtremum(src: Raster, size: number, max: boolean): Raster {
  const { width, height, data } = src;
  const { half, k, cells } = windowOf(size, height);
  const forward = new Uint8Array(cells * width);
  const backward = new Uint8Array(cells * width);
  const row = (i: number): number => Math.min(height - 1, Math.max(0, i - half)) * width;
  for (let b = 0; b < cells; b += k) {
    const e = b + k - 1;
    forward.set(data.subarray(row(b), row(b) + width), b * width);
    backward.set(data.subarray(row(e), row(e) + width), e * width);
    for (let i = b + 1; i <= e; i++)
      runningRow(data, row(i), forward, (i - 1) * width, i * width, width, max);
    for (let i = e - 1; i >= b; i--)
      runningRow(data, row(i), backward, (i + 1) * width, i * width, width, max);
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const a = y * width;
    const c = (y + k - 1) * width;
    for (let x = 0; x < width; x++) {
      const u = backward[a + x]!;
      const v = forward[c + x]!;
      out[a + x] = max === u > v ? u : v;
    }
  }
  return { width, height, data: out };
}

/** `acc[to + x]` = extremum of `data[from + x]` and `acc[previous + x]` for every x of a row. */
function runningRow(
  data: Uint8Array,
  from: number,
  acc: Uint8Array,
  previous: number,
  to: number,
  width: number,
  max: boolean,
): void {
  if (max) {
    for (let x = 0; x < width; x++) {
      const v = data[from + x]!;
      const q = acc[previous + x]!;
      acc[to + x] = v > q ? v : q;
    }
  } else {
    for (let x = 0; x < width; x++) {
      const v = data[from + x]!;
      const q = acc[previous + x]!;
      acc[to + x] = v < q ? v : q;
    }
  }
}

/** Grey dilation (max) with a `w`×`h` rectangle (a side under 2 leaves that direction alone). */
export function dilate(src: Raster, w: number, h: number): Raster {
  const rows = w >= 2 ? rowsExtremum(src, w, true) : src;
  return h >= 2 ? columnsExtremum(rows, h, true) : rows;
}

/** Grey erosion (min) with a `w`×`h` rectangle (a side under 2 leaves that direction alone). */
export function erode(src: Raster, w: number, h: number): Raster {
  const rows = w >= 2 ? rowsExtremum(src, w, false) : src;
  return h >= 2 ? columnsExtremum(rows, h, false) : rows;
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
