// The codec lives in template/extra.ts; re-exported for extract/index.ts's import.
export { encodeMask } from '../template/extra.js';
