import type { Box } from './annotated-image';

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A box from the shapes engines use: {x,y,width,height}, {x,y,w,h}, {left,top,right,bottom} or [x,y,w,h]. */
export function asBox(value: unknown): Box | undefined {
  if (Array.isArray(value) && value.length === 4 && value.every((v) => typeof v === 'number')) {
    const [x, y, width, height] = value as [number, number, number, number];
    return { x, y, width, height };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const x = num(r.x) ?? num(r.left);
  const y = num(r.y) ?? num(r.top);
  const width =
    num(r.width) ??
    num(r.w) ??
    (num(r.right) !== undefined && x !== undefined ? num(r.right)! - x : undefined);
  const height =
    num(r.height) ??
    num(r.h) ??
    (num(r.bottom) !== undefined && y !== undefined ? num(r.bottom)! - y : undefined);
  if (x === undefined || y === undefined || width === undefined || height === undefined) return undefined;
  return { x, y, width, height };
}

/**
 * The first box in a step's extras whose key path matches `pattern` (searched two levels deep), e.g. the selfie
 * face box of the face_match step or the security-feature region of the id_card step.
 */
export function findBox(extra: Record<string, unknown> | undefined, pattern: RegExp): Box | undefined {
  if (!extra) return undefined;
  for (const [key, value] of Object.entries(extra)) {
    const box = asBox(value);
    if (box && pattern.test(key)) return box;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value as Record<string, unknown>)) {
        const nested = asBox(innerValue);
        if (nested && pattern.test(`${key}.${inner}`)) return nested;
      }
    }
  }
  return undefined;
}
