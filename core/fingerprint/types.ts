/**
 * Shared fingerprint types. Coordinates follow ISO/IEC 19794-2: origin top-left, x right, y down, pixels at
 * the template's resolution; angles in radians, counter-clockwise from the x axis, in [0, 2*PI).
 */

/** ISO minutia types. */
export type MinutiaType = 'ending' | 'bifurcation' | 'other';

export interface Minutia {
  x: number;
  y: number;
  /** Radians, counter-clockwise, [0, 2*PI). */
  angle: number;
  type: MinutiaType;
  /** 0-100. */
  quality: number;
}

/** Everything extracted from one image; what a template stores (before encryption). */
export interface FingerprintFeatures {
  width: number;
  height: number;
  /** Resolution of the coordinates, dots per inch (500 by default). */
  dpi: number;
  minutiae: Minutia[];
  /** Image quality 0-100. */
  quality: number;
  /** Optional extra matcher data (e.g. a coarse orientation field), opaque to storage. */
  extra?: Uint8Array;
  /** Whether the image was a fingerprint at all (set by extraction, not stored in templates). */
  likeness?: LikenessVerdict;
}

/** The not-a-fingerprint check's verdict on an image. */
export interface LikenessVerdict {
  /** 0-100; 50 and above is a fingerprint. */
  score: number;
  isFingerprint: boolean;
  /** What was seen, in words an operator can act on. */
  reason: string;
}

/** A grey image, one byte per pixel, rows top to bottom. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}
