/**
 * Every handler group a worker can load, each named by a literal import so a bundler sees and includes it (no
 * folder scan, no path built at run time). A worker loads only the groups of its lane: a fingerprint worker never
 * pays for onnxruntime sessions or tesseract.js.
 */
import type { HandlerGroup } from './handler-types.js';

/** Loaders of the handler groups, by the name lanes use. */
export const HANDLER_GROUPS = {
  fingerprint: async (): Promise<HandlerGroup> =>
    (await import('../fingerprint/worker/handlers.js')).fingerprintGroup,
  face: async (): Promise<HandlerGroup> => (await import('../face/models/inference-handlers.js')).faceGroup,
  document: async (): Promise<HandlerGroup> =>
    (await import('../document/features/worker/handlers.js')).documentGroup,
  'ocr-text': async (): Promise<HandlerGroup> =>
    (await import('../document/ocr/tesseract-handlers.js')).ocrTextGroup,
  // Faults on demand (exit, throw, hang) for the pool's own tests; loaded only by lanes that name it.
  'test-faults': async (): Promise<HandlerGroup> => (await import('./testing/fault-handlers.js')).faultGroup,
} as const;

/** A handler group's name. */
export type GroupName = keyof typeof HANDLER_GROUPS;

/** True when `name` is a registered group. */
export function isGroupName(name: string): name is GroupName {
  return Object.hasOwn(HANDLER_GROUPS, name);
}
