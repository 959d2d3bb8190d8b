import fs from 'node:fs';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TD3_SPECIMEN } from '../document/mrz/test-fixtures.js';
import { foldConvolutionAffines } from './fold.js';
import { readManifest, resolveModelFile } from './manifest.js';

const fileOf = (name: string): string =>
  resolveModelFile(readManifest().models.find((m) => m.name === name)!);
const options = { intraOpNumThreads: 1, logSeverityLevel: 3 as const };

/** A TD3 line drawn in black on white, as the recogniser's input: 3 × 48 × width, values in [-1, 1]. */
async function lineTensor(): Promise<ort.Tensor> {
  const width = 900;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="48"><rect width="100%" height="100%" fill="white"/><text x="6" y="36" font-family="OCR B, monospace" font-size="30">${TD3_SPECIMEN[1]!.replace(/</g, '&lt;')}</text></svg>`;
  const grey = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer();
  const data = new Float32Array(3 * grey.length);
  for (let c = 0; c < 3; c++)
    for (let i = 0; i < grey.length; i++) data[c * grey.length + i] = grey[i]! / 127.5 - 1;
  return new ort.Tensor('float32', data, [1, 3, 48, width]);
}

function argmaxPerStep(probs: Float32Array, classes: number): number[] {
  const out: number[] = [];
  for (let t = 0; t * classes < probs.length; t++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (probs[t * classes + c]! > probs[t * classes + best]!) best = c;
    out.push(best);
  }
  return out;
}

describe('convolution folds', () => {
  it('make the text recogniser smaller and leave its output as it was', async () => {
    const shipped = fs.readFileSync(fileOf('ppocr_rec'));
    const { bytes, rewrites } = foldConvolutionAffines(shipped, { blockedLayout: false });
    // 28 blocks: scale and shift after each convolution, hard-swish, and the scale and shift before the next one.
    expect(rewrites).toBeGreaterThanOrEqual(28 * 3);
    const blocked = foldConvolutionAffines(shipped, { blockedLayout: true });
    expect(blocked.rewrites).toBe(rewrites);
    const [before, after, afterBlocked] = await Promise.all([
      ort.InferenceSession.create(shipped, options),
      ort.InferenceSession.create(bytes, options),
      ort.InferenceSession.create(blocked.bytes, options),
    ]);
    const input = await lineTensor();
    const noise = new ort.Tensor(
      'float32',
      Float32Array.from({ length: 3 * 48 * 320 }, (_, i) => Math.sin(i * 12.9898) % 1),
      [1, 3, 48, 320],
    );
    for (const x of [input, noise]) {
      const a = (await before.run({ x }))[before.outputNames[0]!]!;
      const b = (await after.run({ x }))[after.outputNames[0]!]!;
      expect(b.dims).toEqual(a.dims);
      const pa = a.data as Float32Array;
      const pb = b.data as Float32Array;
      let worst = 0;
      for (let i = 0; i < pa.length; i++) worst = Math.max(worst, Math.abs(pa[i]! - pb[i]!));
      expect(worst).toBeLessThan(1e-4);
      const classes = a.dims[2]!;
      expect(argmaxPerStep(pb, classes)).toEqual(argmaxPerStep(pa, classes));
      // The shifts as BatchNormalization: the same sums.
      const c = (await afterBlocked.run({ x }))[afterBlocked.outputNames[0]!]!;
      expect(c.data).toEqual(b.data);
    }
    await Promise.all([before.release(), after.release(), afterBlocked.release()]);
  });

  it("rewrite the face embedder's PRelu layers for the blocked layout, its embedding unchanged", async () => {
    const shipped = fs.readFileSync(fileOf('fr_feature'));
    expect(foldConvolutionAffines(shipped, { blockedLayout: false }).rewrites).toBe(0);
    const { bytes, rewrites } = foldConvolutionAffines(shipped, { blockedLayout: true });
    // 33 PRelu layers; the first has a slope above 1 and stays.
    expect(rewrites).toBe(32);
    const [before, after] = await Promise.all([
      ort.InferenceSession.create(shipped, options),
      ort.InferenceSession.create(bytes, options),
    ]);
    for (const seed of [12.9898, 78.233]) {
      const input = new ort.Tensor(
        'float32',
        Float32Array.from({ length: 3 * 112 * 112 }, (_, i) => Math.sin(i * seed) % 1),
        [1, 3, 112, 112],
      );
      const a = (await before.run({ input }))[before.outputNames[0]!]!.data as Float32Array;
      const b = (await after.run({ input }))[after.outputNames[0]!]!.data as Float32Array;
      expect(b.length).toBe(a.length);
      let worst = 0;
      let largest = 0;
      for (let i = 0; i < a.length; i++) {
        worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
        largest = Math.max(largest, Math.abs(a[i]!));
      }
      expect(worst).toBeLessThan(1e-5 * largest);
    }
    await Promise.all([before.release(), after.release()]);
  });

  it('return a model without those patterns unchanged', () => {
    const shipped = fs.readFileSync(fileOf('fr_eye'));
    const { bytes, rewrites } = foldConvolutionAffines(shipped);
    expect(rewrites).toBe(0);
    expect(bytes).toBe(shipped);
  });

  it('reject a truncated model instead of writing a broken one', () => {
    const shipped = fs.readFileSync(fileOf('ppocr_rec'));
    expect(() => foldConvolutionAffines(shipped.subarray(0, shipped.length - 1000))).toThrow(/truncated/);
  });
});
