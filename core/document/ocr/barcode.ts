import type { DecodedImage } from '../../imaging/decode.js';
import { parseAamva } from '../features/pdf417/aamva.js';
import { fitWithin } from '../features/downscale.js';
import type { FeatureTaskRunner } from '../features/worker/document-workers.js';
import type { BarcodeFields } from './service.js';

/** Longest side given to the PDF417 decoder (as the document engine's pdf417 feature does). */
const MAX_SIDE = 2400;

/**
 * A licence-barcode reader for the OCR service: the document-features engine's PDF417 decoder and AAMVA
 * parser, run on the document workers (zxing is synchronous and would block the event loop).
 */
export class BarcodeReader {
  constructor(private readonly workers: FeatureTaskRunner) {}

  /** AAMVA fields of the image's PDF417 barcode, null when none decodes or it is not AAMVA. */
  async read(image: DecodedImage): Promise<BarcodeFields | null> {
    const { image: small } = await fitWithin(image, MAX_SIDE);
    const { result } = await this.workers.run({
      kind: 'pdf417',
      image: { rgb: small.rgb, width: small.width, height: small.height },
    });
    if (!result) return null;
    const record = parseAamva(result.text);
    return record ? { ...record.fields } : null;
  }
}
