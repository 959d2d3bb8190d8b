/**
 * PDF417 decoding with @zxing/library (pure JS) from 8-bit luminance. CPU-bound: runs in the feature worker.
 */
import {
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  NotFoundException,
  PDF417Reader,
  RGBLuminanceSource,
  ChecksumException,
  FormatException,
} from '@zxing/library';
import type { Region } from '../types.js';

/** A decoded barcode: its text and the bounding box of its corner points. */
export interface Pdf417Decoded {
  text: string;
  region: Region | null;
}

function boxOf(points: { getX(): number; getY(): number }[]): Region | null {
  if (points.length === 0) return null;
  const xs = points.map((p) => p.getX());
  const ys = points.map((p) => p.getY());
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return {
    x: Math.round(x),
    y: Math.round(y),
    width: Math.round(Math.max(...xs) - x),
    height: Math.round(Math.max(...ys) - y),
  };
}

/** Decode the first PDF417 symbol in a grey image, or null when none decodes. */
export function decodePdf417(gray: Uint8Array, width: number, height: number): Pdf417Decoded | null {
  const luminance = new Uint8ClampedArray(gray.buffer, gray.byteOffset, gray.length);
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height)));
  const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.TRY_HARDER, true]]);
  try {
    const result = new PDF417Reader().decode(bitmap, hints);
    return { text: result.getText(), region: boxOf(result.getResultPoints().filter((p) => p !== null)) };
  } catch (error) {
    // zxing signals "nothing here" and "damaged symbol" by exceptions; both mean no readable barcode.
    if (
      error instanceof NotFoundException ||
      error instanceof ChecksumException ||
      error instanceof FormatException
    ) {
      return null;
    }
    throw error;
  }
}
