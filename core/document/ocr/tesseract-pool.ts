import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/** A recognised line of printed text. */
export interface PrintedLine {
  text: string;
  /** 0–1. */
  confidence: number;
}

const require = createRequire(import.meta.url);

/**
 * Local paths for tesseract.js: the `eng` model shipped by @tesseract.js-data/eng (gzip as shipped), the
 * Node worker script and the wasm core from node_modules, and a cache folder under the OS temp dir. Nothing
 * is fetched from a CDN.
 */
function localPaths(): { langPath: string; cachePath: string; workerPath: string; corePath: string } {
  const langPath = path.join(
    path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0_best_int',
  );
  const cachePath = path.join(os.tmpdir(), 'idv-console-tesseract');
  fs.mkdirSync(cachePath, { recursive: true });
  const tesseractDir = path.dirname(require.resolve('tesseract.js/package.json'));
  const workerPath = path.join(tesseractDir, 'src', 'worker-script', 'node', 'index.js');
  const corePath = path.dirname(require.resolve('tesseract.js-core/package.json'));
  return { langPath, cachePath, workerPath, corePath };
}

/** A fixed pool of tesseract.js workers (each a worker thread), created once and reused round-robin. */
export class TesseractPool {
  private workers: Promise<Worker>[] = [];
  private next = 0;

  /** @param size workers to run; defaults to the machine's cores (at most 2: OCR shares the box with the rest). */
  constructor(private readonly size = Math.max(1, Math.min(2, os.availableParallelism()))) {}

  private worker(): Promise<Worker> {
    if (this.workers.length < this.size) {
      const paths = localPaths();
      const created = createWorker('eng', OEM.LSTM_ONLY, { ...paths, gzip: true, cacheMethod: 'write' });
      this.workers.push(created);
      return created;
    }
    const chosen = this.workers[this.next % this.workers.length]!;
    this.next++;
    return chosen;
  }

  /** Recognise the printed lines of an encoded image (PNG/JPEG bytes) as a block of text. */
  async recognizeLines(image: Buffer): Promise<PrintedLine[]> {
    const worker = await this.worker();
    // Uploads rarely carry a true DPI; a fixed one silences tesseract's per-image resolution guesswork.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
    const { data } = await worker.recognize(image, {}, { text: true, blocks: true });
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
  }

  /** Terminate every worker thread. */
  async dispose(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map(async (w) => (await w).terminate()));
  }
}
