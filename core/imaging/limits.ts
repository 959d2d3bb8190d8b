/** Upload limits (DESIGN.md "Limits"); configurable per server. */
export interface ImageLimits {
  /** Largest accepted file, in bytes. */
  maxFileBytes: number;
  /** Largest accepted image, in pixels (width x height), against decompression bombs. */
  maxPixels: number;
  /** Shortest side an image may have: anything narrower holds no face, finger or document (422). */
  minSide: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  minSide: 16,
};

/** Formats accepted on upload, as sharp names them. */
export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'tiff', 'bmp'] as const;
export type AcceptedFormat = (typeof ACCEPTED_FORMATS)[number];
