import { describe, expect, it } from 'vitest';
import { normalizeScore, normalizeStep, RAW_RANGES } from './normalize.js';
import { looksPersonal, maskReference, safeReference } from './reference.js';

describe('score normalisation', () => {
  it('puts the engine threshold at 0.5 and keeps the range ends', () => {
    const range = RAW_RANGES.face_match;
    expect(normalizeScore(0.3, range, 0.3)).toBe(0.5);
    expect(normalizeScore(1, range, 0.3)).toBe(1);
    expect(normalizeScore(-1, range, 0.3)).toBe(0);
    expect(normalizeScore(0.65, range, 0.3)).toBeCloseTo(0.75, 4);
    expect(normalizeScore(-0.35, range, 0.3)).toBeCloseTo(0.25, 4);
  });

  it('maps linearly without a threshold', () => {
    expect(normalizeScore(0, RAW_RANGES.face_match)).toBe(0.5);
    expect(normalizeScore(0.8, RAW_RANGES.liveness)).toBeCloseTo(0.8, 6);
  });

  it('keeps the raw score and threshold of a step', () => {
    const step = normalizeStep(
      { status: 'SUCCESS', score: 0.65, message: 'm', extra: { threshold: 0.3, face: { x: 1 } } },
      RAW_RANGES.face_match,
    );
    expect(step.score).toBeCloseTo(0.75, 4);
    expect(step.extra).toEqual({ raw_score: 0.65, threshold: 0.3 });
  });
  it('flags a rejection where nothing was compared as having no score', () => {
    const step = normalizeStep(
      { status: 'REJECTED', score: 0, message: 'm', reason: 'no_face_detected' },
      RAW_RANGES.face_match,
    );
    expect(step.extra).toMatchObject({ raw_score: 0, no_score: true });
    const measured = normalizeStep(
      { status: 'REJECTED', score: 0.1, message: 'm', reason: 'no_match', extra: { threshold: 0.3 } },
      RAW_RANGES.face_match,
    );
    expect(measured.extra).not.toHaveProperty('no_score');
  });
});

describe('caller reference', () => {
  it('masks references that look like personal data', () => {
    expect(looksPersonal('+49 151 1234 5678')).toBe(true);
    expect(looksPersonal('jane.doe@example.org')).toBe(true);
    expect(looksPersonal('loan-7F3K-22')).toBe(false);
    expect(safeReference('+4915112345678')).toEqual({ value: '+4**********78', masked: true });
    expect(safeReference('loan-7F3K-22')).toEqual({ value: 'loan-7F3K-22', masked: false });
    expect(maskReference('12345')).toBe('*****');
    expect(safeReference(undefined)).toBeNull();
  });

  it('rejects a reference that is not short printable text', () => {
    expect(() => safeReference('x'.repeat(129))).toThrow(/reference/);
    expect(() => safeReference(42)).toThrow(/reference/);
    expect(() => safeReference('line\nbreak')).toThrow(/reference/);
  });
});
