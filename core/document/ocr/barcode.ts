import type { DecodedImage } from '../../imaging/decode.js';
import { parseAamva } from '../features/pdf417/aamva.js';
import { fitWithin } from '../features/downscale.js';
import { FeatureWorker } from '../features/worker/pool.js';
import type { BarcodeFields } from './service.js';

/** Longest side given to the PDF417 decoder (as the document engine's pdf417 feature does). */
const MAX_SIDE = 2400;

/**
 * A licence-barcode reader for the OCR service: the document-features engine's PDF417 decoder and AAMVA
 * parser, run in a feature worker thread (zxing is synchronous and would block the event loop).
 */
export class BarcodeReader {
  private readonly worker = new FeatureWorker();

  /** AAMVA fields of the image's PDF417 barcode, null when none decodes or it is not AAMVA. */
  async read(image: DecodedImage): Promise<BarcodeFields | null> {
    const { image: small } = await fitWithin(image, MAX_SIDE);
    const { result } = await this.worker.run({
      kind: 'pdf417',
      image: { rgb: small.rgb, width: small.width, height: small.height },
    });
    if (!result) return null;
    const record = parseAamva(result.text);
    return record ? { ...record.fields } : null;
  }

  /** Stop the worker thread. */
  async dispose(): Promise<void> {
    await this.worker.close();
  }
}
