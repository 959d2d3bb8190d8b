import { ocrTextLane, WorkerLane, type LaneStats, type RunOptions } from '../../workers/index.js';
import type { LaneTuning } from '../../workers/sizing.js';
import type { ocrTextHandlers, PrintedLine } from './tesseract-handlers.js';

export type { PrintedLine } from './tesseract-handlers.js';

/**
 * Printed-text OCR on the OCR text lane of the worker pool: each worker owns a tesseract.js worker, started on
 * first use; a full queue or long expected wait answers OVERLOADED, a dead worker is replaced.
 */
export class TesseractPool {
  readonly lane: WorkerLane<typeof ocrTextHandlers>;

  /** @param size workers (default: core/workers/sizing.ts); `tuning` overrides the other lane settings. */
  constructor(size?: number, tuning: LaneTuning = {}) {
    this.lane = new WorkerLane<typeof ocrTextHandlers>({
      ...ocrTextLane(),
      ...tuning,
      ...(size !== undefined ? { size } : {}),
      name: 'ocr-text',
      label: 'printed-text reader',
      groups: ['ocr-text'],
    });
  }

  /** Recognise the printed lines of an encoded image (PNG/JPEG bytes; copied to the worker). */
  recognizeLines(image: Buffer, options: RunOptions = {}): Promise<PrintedLine[]> {
    const payload: { image: Uint8Array } = { image };
    const prepare = (): ArrayBuffer[] => {
      const copy = Uint8Array.from(image);
      payload.image = copy;
      return [copy.buffer];
    };
    return this.lane.run('ocr.printed', payload, { ...options, prepare });
  }

  /** The lane's figures. */
  stats(): LaneStats {
    return this.lane.stats();
  }

  /** Stop every worker (and its tesseract.js worker). */
  dispose(): Promise<void> {
    return this.lane.close();
  }
}
