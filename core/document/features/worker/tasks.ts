/**
 * The CPU-heavy pure steps of the feature check, as messages a worker thread runs: grey conversion, ORB
 * extraction, mark matching, PDF417 decoding. Pure code (the worker entry only forwards messages here).
 */
import { rgbToGray } from '../../../imaging/decode.js';
import type { GrayImage } from '../orb/gray-image.js';
import { decodePdf417, type Pdf417Decoded } from '../pdf417/decode.js';
import { matchMark, type MarkFeatures, type MarkMatch } from '../reference-mark/match-mark.js';
import { extractCardFeatures, extractMarkFeatures } from '../reference-mark/prepare.js';

/** An RGB raster as sent to the worker (a copy: the request's buffer stays with the request). */
export interface RgbInput {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** A registered mark as the matcher needs it. */
export interface MarkInput {
  id: string;
  name: string;
  features: MarkFeatures;
}

/** Messages the worker understands. */
export type FeatureTask =
  | { kind: 'mark_features'; image: RgbInput }
  | { kind: 'find_marks'; image: RgbInput; marks: MarkInput[] }
  | { kind: 'pdf417'; image: RgbInput };

/** One mark's match on the card. */
export interface MarkOutcome extends MarkMatch {
  id: string;
  name: string;
}

/** Result type of each task kind. */
export interface FeatureTaskResults {
  mark_features: MarkFeatures;
  find_marks: MarkOutcome[];
  pdf417: Pdf417Decoded | null;
}

function gray(image: RgbInput): GrayImage {
  const buffer = Buffer.from(image.rgb.buffer, image.rgb.byteOffset, image.rgb.length);
  return { data: rgbToGray(buffer, image.width, image.height), width: image.width, height: image.height };
}

/** Run one task to completion. */
export function runFeatureTask(task: FeatureTask): FeatureTaskResults[FeatureTask['kind']] {
  switch (task.kind) {
    case 'mark_features':
      return extractMarkFeatures(gray(task.image));
    case 'find_marks': {
      if (task.marks.length === 0) return [];
      const image = gray(task.image);
      const card = extractCardFeatures(image);
      return task.marks.map((mark) => ({
        id: mark.id,
        name: mark.name,
        ...matchMark(mark.features, card, image),
      }));
    }
    case 'pdf417': {
      const image = gray(task.image);
      return decodePdf417(image.data, image.width, image.height);
    }
  }
}
