import { describe, expect, it } from 'vitest';
import { maskMobile, normaliseMobile } from './mobile.js';

describe('mobile numbers', () => {
  it('normalises digits with a country code to E.164', () => {
    expect(normaliseMobile('447911123456')).toBe('+447911123456');
    expect(normaliseMobile('+44 7911 123-456')).toBe('+447911123456');
    expect(normaliseMobile('0044 7911 123456')).toBe('+447911123456');
    expect(normaliseMobile('2348031234567')).toBe('+2348031234567');
  });
  it('rejects invalid numbers with a 400 code naming the field', () => {
    for (const bad of ['', '123', 'abc', '+1 000 000 0000', '4479111234567890123']) {
      let caught: unknown;
      try {
        normaliseMobile(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ status: 400, details: { field: 'mobile_number' } });
    }
  });
  it('masks all but the country prefix and the last three digits', () => {
    expect(maskMobile('+447911123456')).toBe('+4479*****456');
  });
});
