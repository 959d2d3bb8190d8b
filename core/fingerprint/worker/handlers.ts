/** Worker side of fingerprint extraction: the `fingerprint.extract` task kind. */
import type { HandlerGroup } from '../../workers/handler-types.js';
import { runExtraction } from './extract-job.js';

/** An image to extract: interleaved RGB as decoded from an upload. */
export interface ExtractInput {
  width: number;
  height: number;
  rgb: Uint8Array;
  dpi?: number;
}

/** The fingerprint task kinds. */
export const fingerprintHandlers = {
  'fingerprint.extract': (input: ExtractInput) =>
    runExtraction(input.rgb, input.width, input.height, input.dpi),
};

/** The fingerprint handler group. */
export const fingerprintGroup: HandlerGroup<typeof fingerprintHandlers> = { handlers: fingerprintHandlers };
