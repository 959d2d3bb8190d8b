import sharp from 'sharp';
import type { DecodedImage } from '../../imaging/decode.js';
import type { Raster } from './morphology.js';
import type { MrzReading } from './types.js';

/** Width of the working copy the zone is searched in. */
export const WORK_WIDTH = 720;
/** Longest side of that copy: a long, thin image (a 16x65000 strip) would otherwise become millions of rows. */
const MAX_WORK_SIDE = 4 * WORK_WIDTH;

/** The image turned by some angle, with the working size the zone is searched at. */
export interface OrientedView {
  pipeline: () => sharp.Sharp;
  width: number;
  height: number;
  scale: number;
  workWidth: number;
  workHeight: number;
  /** Map a box of the turned image back to the decoded image's pixels. */
  toImageBox: (box: MrzReading['region']) => MrzReading['region'];
}

/** Turn the image clockwise by `degrees` (any angle; the canvas grows, new corners white). */
export function orient(image: DecodedImage, degrees: number): OrientedView {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const width = Math.round(Math.abs(image.width * cos) + Math.abs(image.height * sin));
  const height = Math.round(Math.abs(image.width * sin) + Math.abs(image.height * cos));
  const scale = Math.min(WORK_WIDTH / width, MAX_WORK_SIDE / height);
  const pipeline = (): sharp.Sharp =>
    sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } }).rotate(degrees, {
      background: '#ffffff',
    });
  const toImageBox = (box: MrzReading['region']): MrzReading['region'] => {
    // sharp turns clockwise about the centre of a canvas grown to hold the whole image.
    const corners = [
      [box.x, box.y],
      [box.x + box.width, box.y],
      [box.x, box.y + box.height],
      [box.x + box.width, box.y + box.height],
    ].map(([x = 0, y = 0]) => {
      const dx = x - width / 2;
      const dy = y - height / 2;
      return [image.width / 2 + dx * cos + dy * sin, image.height / 2 - dx * sin + dy * cos] as const;
    });
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const x = Math.max(0, Math.floor(Math.min(...xs)));
    const y = Math.max(0, Math.floor(Math.min(...ys)));
    return {
      x,
      y,
      width: Math.min(image.width, Math.ceil(Math.max(...xs))) - x,
      height: Math.min(image.height, Math.ceil(Math.max(...ys))) - y,
    };
  };
  return {
    pipeline,
    width,
    height,
    scale,
    workWidth: Math.max(1, Math.round(width * scale)),
    workHeight: Math.max(1, Math.round(height * scale)),
    toImageBox,
  };
}

/** Run a sharp pipeline to a grey raster. */
export async function toRaster(pipeline: sharp.Sharp): Promise<Raster> {
  const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
  };
}
