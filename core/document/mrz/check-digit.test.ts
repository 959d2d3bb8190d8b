import { describe, expect, it } from 'vitest';
import { computeCheckDigit, isCheckDigitValid, mrzCharValue } from './check-digit.js';

describe('ICAO 9303 check digits', () => {
  it('values digits, letters and the filler as ICAO defines', () => {
    expect(mrzCharValue('7')).toBe(7);
    expect(mrzCharValue('A')).toBe(10);
    expect(mrzCharValue('Z')).toBe(35);
    expect(mrzCharValue('<')).toBe(0);
    expect(mrzCharValue('a')).toBe(-1);
  });

  it('computes the digits of the ICAO specimen passport', () => {
    expect(computeCheckDigit('L898902C3')).toBe(6);
    expect(computeCheckDigit('740812')).toBe(2);
    expect(computeCheckDigit('120415')).toBe(9);
    expect(computeCheckDigit('ZE184226B<<<<<')).toBe(1);
    expect(computeCheckDigit('L898902C36' + '7408122' + '120415' + '9' + 'ZE184226B<<<<<1')).toBe(0);
  });

  it('rejects a wrong digit and accepts a filler only for an empty field', () => {
    expect(isCheckDigitValid('740812', '2')).toBe(true);
    expect(isCheckDigitValid('740812', '3')).toBe(false);
    expect(isCheckDigitValid('<<<<<<', '<')).toBe(true);
    expect(isCheckDigitValid('AB<<<<', '<')).toBe(false);
    expect(isCheckDigitValid('74O812', '2')).toBe(false);
  });
});
