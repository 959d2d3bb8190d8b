/** The synthetic generator's PRNG lives in core/math, shared with other deterministic code. */
export { createPrng, mixSeed, type Prng } from '../../math/prng.js';
