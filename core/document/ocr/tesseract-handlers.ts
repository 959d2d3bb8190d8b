/**
 * Worker side of printed-text OCR: each worker of the OCR text lane owns one tesseract.js worker (the `eng` model
 * shipped by @tesseract.js-data/eng, the wasm core from node_modules; nothing is fetched from a CDN).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { packageDir, packageFile } from '../../assets/assets.js';
import type { HandlerGroup } from '../../workers/handler-types.js';

/** A recognised line of printed text. */
export interface PrintedLine {
  text: string;
  /** 0–1. */
  confidence: number;
}

/** Local paths for tesseract.js: model (gzip as shipped), Node worker script, wasm core, a cache under the OS temp dir. */
function localPaths(): { langPath: string; cachePath: string; workerPath: string; corePath: string } {
  const langPath = packageFile('@tesseract.js-data/eng', '4.0.0_best_int');
  const cachePath = path.join(os.tmpdir(), 'idv-console-tesseract');
  fs.mkdirSync(cachePath, { recursive: true });
  const workerPath = packageFile('tesseract.js', 'src/worker-script/node/index.js');
  // The wasm core is tesseract.js's own dependency: looked up from its folder.
  const corePath = packageDir('tesseract.js-core', path.join(packageDir('tesseract.js'), 'package.json'));
  return { langPath, cachePath, workerPath, corePath };
}

let tesseract: Worker | undefined;

/** The OCR text task kinds. */
export const ocrTextHandlers = {
  /** The printed lines of an encoded image (PNG/JPEG bytes), read as a block of text. */
  'ocr.printed': async ({ image }: { image: Uint8Array }): Promise<PrintedLine[]> => {
    if (!tesseract) throw new Error('tesseract.js is not started in this worker.');
    // Uploads rarely carry a true DPI; a fixed one silences tesseract's per-image resolution guesswork.
    await tesseract.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
    const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    const { data } = await tesseract.recognize(bytes, {}, { text: true, blocks: true });
    const lines: PrintedLine[] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const text = line.text.trim();
          if (text) lines.push({ text, confidence: line.confidence / 100 });
        }
      }
    }
    return lines;
  },
};

/** The OCR text handler group. */
export const ocrTextGroup: HandlerGroup<typeof ocrTextHandlers> = {
  handlers: ocrTextHandlers,
  async init() {
    tesseract = await createWorker('eng', OEM.LSTM_ONLY, {
      ...localPaths(),
      gzip: true,
      cacheMethod: 'write',
    });
  },
  async dispose() {
    await tesseract?.terminate();
    tesseract = undefined;
  },
};
