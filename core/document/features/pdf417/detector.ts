/**
 * The `pdf417` feature: a PDF417 barcode decodes and parses as an AAMVA driver's licence / ID payload.
 * Details carry the header facts and which elements are present, never the holder's data.
 */
import type { DecodedImage } from '../../../imaging/decode.js';
import type { FeatureTaskRunner } from '../worker/document-workers.js';
import { clampScore, type FeatureResult } from '../types.js';
import { parseAamva } from './aamva.js';
import { fitWithin, scaleRegion } from '../downscale.js';

/** Longest side the decoder gets: enough for a licence barcode filling a fifth of a phone photo. */
const MAX_SIDE = 2400;

/** Score of a barcode that decodes but is not AAMVA: it proves a barcode, not a licence. */
export const NON_AAMVA_SCORE = 0.3;

/** Run the PDF417 detector on a card (decoding in the feature worker). */
export async function detectPdf417(image: DecodedImage, worker: FeatureTaskRunner): Promise<FeatureResult> {
  const started = performance.now();
  const fitted = await fitWithin(image, MAX_SIDE);
  const { image: small, factor } = fitted;
  const { result: decoded, ms: computeMs } = await worker.run({
    kind: 'pdf417',
    image: { rgb: small.rgb, width: small.width, height: small.height },
  });
  // `ms` is the decoder's own time; waiting behind other tasks in the worker is reported apart.
  const waited = Math.round(performance.now() - started - computeMs);
  // Parsing takes microseconds next to decoding: the decoder's time stands for the detector's.
  const ms = (): number => Math.round(computeMs);
  if (!decoded)
    return {
      feature: 'pdf417',
      score: 0,
      region: null,
      ms: ms(),
      details: { found: false, queue_ms: waited },
    };
  const record = parseAamva(decoded.text);
  if (!record) {
    return {
      feature: 'pdf417',
      score: NON_AAMVA_SCORE,
      region: scaleRegion(decoded.region, factor),
      ms: ms(),
      details: { found: true, aamva: false, queue_ms: waited },
    };
  }
  const fields = record.fields;
  const required = [fields.documentNumber, fields.lastName, fields.birthDate];
  const complete = required.every((v) => v !== undefined);
  return {
    feature: 'pdf417',
    score: clampScore(complete ? 1 : 0.6),
    region: scaleRegion(decoded.region, factor),
    ms: ms(),
    details: {
      found: true,
      aamva: true,
      iin: record.iin,
      version: record.version,
      jurisdiction_version: record.jurisdictionVersion,
      subfiles: record.subfiles.map((s) => s.type),
      elements_present: Object.keys(
        record.subfiles.find((s) => s.type === 'DL' || s.type === 'ID')?.elements ?? {},
      ),
      complete,
      queue_ms: waited,
    },
  };
}
