/**
 * The size an upload is decoded at, from what its engine actually works on (docs/reliability.md, "Working size"):
 * pixels beyond it would cost memory and time and change no result.
 */

/** What an image is decoded for. */
export type ImagePurpose = 'face' | 'document' | 'fingerprint';

/**
 * Longest side of a face image. The detector sees a 640 px copy; landmarks and alignment read chips of at most
 * 240 px cut around each face, so a face keeps all the pixels it is read at while its box is 133 px or more: at
 * 2560 px, any face wider than 5.2% of the photo's long side (every selfie and ID-card portrait).
 */
export const FACE_LONG_SIDE = 2560;

/**
 * Longest side of a document image. The PDF417 reader works at 2400 px, printed text at 1800, reference marks at
 * 1280; MRZ lines are read from the decoded pixels, and a passport page a third of the photo's width still gets
 * 1000 px across (characters of 20 px, about twice the smallest the reader reads on the evaluation set).
 */
export const DOCUMENT_LONG_SIDE = 3072;

/** Resolution the fingerprint extractor works at: a finger scanned finer is decoded down to it. */
export const FINGERPRINT_DPI = 500;

/**
 * Largest side of a fingerprint image at 500 dpi (4.1 inches, more than a four-finger slap): a larger one is cut
 * to its centre, keeping its scale, since the matcher needs the true ridge spacing.
 */
export const FINGERPRINT_MAX_SIDE = 2048;

/** Densities in a file header that are a sensor's, not a writer's placeholder (72, 96 dpi). */
const PLAUSIBLE_DPI = { min: 250, max: 1500 };

/** An upload's size after EXIF orientation, with the density its header states. */
export interface SourceSize {
  width: number;
  height: number;
  dpi?: number;
}

/** How to decode an upload: the region of it kept and the size it is brought to. */
export interface WorkingSize {
  /** Region of the (oriented) upload that is decoded: the whole of it, or the centre of an oversized print. */
  region: { left: number; top: number; width: number; height: number };
  width: number;
  height: number;
  /** Decoded pixels per upload pixel (1 = full resolution). */
  scale: number;
}

/** A sensor density stated in the header, or undefined for a placeholder. */
export function plausibleDpi(dpi: number | undefined): number | undefined {
  return dpi !== undefined && dpi >= PLAUSIBLE_DPI.min && dpi <= PLAUSIBLE_DPI.max ? dpi : undefined;
}

function whole(source: SourceSize, scale: number, minSide: number): WorkingSize {
  // Never below the shortest usable side: a long, thin image keeps its narrow side.
  const floor = Math.min(1, minSide / Math.max(1, Math.min(source.width, source.height)));
  const s = Math.min(1, Math.max(scale, floor));
  return {
    region: { left: 0, top: 0, width: source.width, height: source.height },
    width: Math.max(1, Math.round(source.width * s)),
    height: Math.max(1, Math.round(source.height * s)),
    scale: s,
  };
}

function fingerprint(source: SourceSize, minSide: number): WorkingSize {
  const dpi = plausibleDpi(source.dpi);
  const scale = dpi !== undefined && dpi > FINGERPRINT_DPI ? FINGERPRINT_DPI / dpi : 1;
  const span = Math.floor(FINGERPRINT_MAX_SIDE / scale);
  if (source.width <= span && source.height <= span) return whole(source, scale, minSide);
  const width = Math.min(source.width, span);
  const height = Math.min(source.height, span);
  return {
    region: {
      left: Math.floor((source.width - width) / 2),
      top: Math.floor((source.height - height) / 2),
      width,
      height,
    },
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    scale,
  };
}

/**
 * The working size of an upload for its purposes: none keeps full resolution; an image used by several engines
 * (an ID card: face and document) is decoded at the largest size any of them needs.
 */
export function workingSize(
  source: SourceSize,
  purposes: readonly ImagePurpose[],
  minSide = 16,
): WorkingSize {
  if (purposes.length === 0) return whole(source, 1, minSide);
  if (purposes.includes('fingerprint'))
    return purposes.length === 1 ? fingerprint(source, minSide) : whole(source, 1, minSide);
  const longSide = Math.max(
    ...purposes.map((purpose) => (purpose === 'face' ? FACE_LONG_SIDE : DOCUMENT_LONG_SIDE)),
  );
  return whole(source, longSide / Math.max(source.width, source.height), minSide);
}
