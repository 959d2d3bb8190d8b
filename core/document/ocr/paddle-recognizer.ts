import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';
import sharp from 'sharp';
import { loadModelSessions, type LoadedModel } from '../../models/registry.js';
import { resolveModelFile } from '../../models/manifest.js';
import {
  charsetFromDictionary,
  decodeCtc,
  lowerCaseClasses,
  readLowerCase,
  type CtcCharset,
  type CtcLine,
} from './ctc.js';

/** A grey image: one byte per pixel, row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** PP-OCRv4 recognition reads lines 48 pixels high; width follows the aspect ratio. */
const INPUT_HEIGHT = 48;
/** Widest input accepted: beyond it the line is squeezed (a 44-character MRZ line needs ~1,400). */
const MAX_WIDTH = 2400;
/** Quiet zone added left and right (pixels at input scale) so edge glyphs are not clipped by the CTC frame. */
const PAD = 8;
/** Share of the input height the text fills. */
const VFILL = 1;
/**
 * Horizontal squeeze: PP-OCR was trained mostly on square CJK glyphs, and narrower Latin text is read with
 * fewer dropped characters when squeezed (mrz-lines: 96.7% at 1.0, 98.2% at 0.8).
 */
const STRETCH = 0.8;

/** How a line crop is fitted into the model's input. */
export interface RecognizeOptions {
  /** Share of the 48-pixel input height the crop fills (the rest is white margin); default 1. */
  fill?: number;
  /** Horizontal scale after the height is fitted; default 0.8. */
  stretch?: number;
  /**
   * The machine's other cores are idle: the call may run on two threads (about half the time; the same reading).
   * Under load one thread is kept, since a second thread then only waits for a core others need.
   */
  spareCore?: boolean;
}

/** Recognises single text lines with PaddleOCR PP-OCRv4 (the `ppocr_rec` model of models/manifest.json). */
export interface LineRecognizer {
  /** Recognise one line restricted to `allowedChars` (e.g. the MRZ alphabet). */
  recognize(line: GrayImage, allowedChars: string, options?: RecognizeOptions): Promise<CtcLine>;
  dispose(): Promise<void>;
}

/** Load the recognition model (sha256- and shape-checked) and its dictionary; fails fast when either is missing. */
export async function loadLineRecognizer(): Promise<LineRecognizer> {
  // A second session on two threads, not spinning (an idle thread yields its core), for calls made alone.
  const [model, paired]: (LoadedModel | undefined)[] = await loadModelSessions(
    'ppocr_rec',
    os.availableParallelism() >= 2 ? [{}, { intraOpNumThreads: 2, allowSpinning: false }] : [{}],
  );
  if (!model) throw new Error('ppocr_rec opened no session.');
  const dictionaryFile = path.join(path.dirname(resolveModelFile(model.entry)), 'ppocr_keys_v1.txt');
  const dictionary = fs.readFileSync(dictionaryFile, 'utf8').split('\n');
  if (dictionary.at(-1) === '') dictionary.pop();
  // PaddleOCR appends a space class after the dictionary entries.
  dictionary.push(' ');
  const charsets = new Map<string, CtcCharset>();
  const lower = lowerCaseClasses(dictionary);
  const inputName = model.session.inputNames[0] ?? 'x';
  const outputName = model.session.outputNames[0] ?? 'softmax_11.tmp_0';

  return {
    async recognize(line, allowedChars, options = {}) {
      let charset = charsets.get(allowedChars);
      if (!charset) {
        charset = charsetFromDictionary(dictionary, allowedChars);
        charsets.set(allowedChars, charset);
      }
      const tensor = await toInputTensor(line, options.fill ?? VFILL, options.stretch ?? STRETCH);
      const session = options.spareCore && paired ? paired.session : model.session;
      const result = await session.run({ [inputName]: tensor });
      const out = result[outputName];
      if (!out) throw new Error('ppocr_rec produced no output.');
      const [, steps = 0, classes = 0] = out.dims;
      const probs = out.data as Float32Array;
      // Input pixels per time step, and image pixels per input pixel of the resized text.
      const inputWidth = tensor.dims[3] ?? 0;
      const perStep = inputWidth / Math.max(1, steps);
      const scale = line.width / Math.max(1, inputWidth - 2 * PAD);
      return {
        ...decodeCtc(probs, steps, classes, charset),
        lowerCase: readLowerCase(probs, steps, classes, lower),
        columns: { origin: (perStep / 2 - PAD) * scale, step: perStep * scale },
      };
    },
    async dispose() {
      await Promise.all([model.session.release(), paired?.session.release()]);
    },
  };
}

async function toInputTensor(line: GrayImage, fill: number, stretch: number): Promise<ort.Tensor> {
  const textHeight = Math.round(INPUT_HEIGHT * fill);
  const top = Math.floor((INPUT_HEIGHT - textHeight) / 2);
  const scaledWidth = Math.max(
    8,
    Math.min(MAX_WIDTH, Math.round((stretch * line.width * textHeight) / Math.max(1, line.height))),
  );
  const resized = await sharp(line.data, { raw: { width: line.width, height: line.height, channels: 1 } })
    .resize(scaledWidth, textHeight, { fit: 'fill', kernel: 'cubic' })
    // sharp widens one-channel raw input to sRGB unless told to stay grey.
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const width = scaledWidth + 2 * PAD;
  const plane = width * INPUT_HEIGHT;
  const data = new Float32Array(3 * plane).fill(1);
  for (let y = 0; y < textHeight; y++) {
    for (let x = 0; x < scaledWidth; x++) {
      // Paddle's normalisation: (v / 255 - 0.5) / 0.5; grey is replicated into the three channels.
      const v = (resized[y * scaledWidth + x] ?? 255) / 127.5 - 1;
      const i = (y + top) * width + x + PAD;
      data[i] = v;
      data[i + plane] = v;
      data[i + 2 * plane] = v;
    }
  }
  return new ort.Tensor('float32', data, [1, 3, INPUT_HEIGHT, width]);
}
