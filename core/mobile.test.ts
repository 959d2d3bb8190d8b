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
  it('tells what is wrong with a number in words a caller can act on', () => {
    const messageOf = (input: string): string => {
      try {
        normaliseMobile(input);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    // A national number (trunk prefix 0) lacks its country code.
    expect(messageOf('0911234567')).toMatch(/country code is missing/);
    expect(messageOf('07911 123456')).toMatch(/e\.g\. 447911123456/);
    expect(messageOf('+999123456789')).toMatch(/does not start with a known country code/);
    expect(messageOf('447911')).toMatch(/too short/);
    expect(messageOf('4479111234567890')).toMatch(/too long/);
    expect(messageOf('44791112345x')).toMatch(/only digits/);
    expect(messageOf('441234')).toMatch(/too short for a number with country code 44 \(United Kingdom\)/);
    // A valid country code whose number is not valid names the country.
    expect(messageOf('+44 1234')).toMatch(/too short/);
    expect(messageOf('+44 0000 000000')).toMatch(/not a valid number for country code 44 \(United Kingdom\)/);
    for (const input of ['0911234567', '+999123456789', '447911', 'abc', '+44 0000 000000'])
      expect(messageOf(input)).not.toMatch(/\b(\w+) \1\b/);
  });
  it('masks all but the country prefix and the last three digits', () => {
    expect(maskMobile('+447911123456')).toBe('+4479*****456');
  });
});
