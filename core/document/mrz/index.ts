/** MRZ reading: locate, recognise, repair and validate the machine-readable zone of identity documents. */
export { readMrz, disposeMrzReader } from './reader.js';
export { MRZ_ALPHABET } from './group-reader.js';
export { validateMrzLines, type MrzValidation, type MrzCheck, type MrzCountry } from './validate.js';
export type { MrzReading } from './types.js';
export type { MrzFormat } from './layout.js';
