/**
 * Synthetic ID cards for tests, end-to-end runs and benchmarks: `renderIdCard(options)` gives JPEG bytes,
 * `distortCard` photographs them (scale, rotation, blur, lighting, perspective), `markSvg` the registrable mark;
 * `renderDocument` draws TD1/TD2/TD3 data pages with varied data and `augment` degrades them for the MRZ benchmark.
 */
export { renderIdCard, DEFAULT_HOLDER, type RenderCardOptions } from './render-card.js';
export { distortCard, type DistortOptions } from './distort.js';
export { markSvg, type MarkKind } from './marks.js';
export { buildTd1, mrzCheckDigit, type CardHolder, type MrzCorruption } from './mrz-td1.js';
export { buildAamvaPayload } from './aamva-payload.js';
export { CARD, LAYOUT } from './card-svg.js';
export { renderDocument, type RenderDocumentOptions, type RenderedDocument } from './render-document.js';
export { buildMrz, MRZ_SHAPE, type TravelDocument, type TravelFormat } from './mrz-text.js';
export { AUGMENTATIONS, augment, type Augmentation } from './augment.js';
export { seededRandom, randomDocument } from './random-document.js';
