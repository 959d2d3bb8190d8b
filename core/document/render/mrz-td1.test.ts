import { describe, expect, it } from 'vitest';
import { buildTd1, mrzCheckDigit } from './mrz-td1.js';

const ICAO_SPECIMEN = {
  issuingState: 'UTO',
  documentNumber: 'D23145890',
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  nationality: 'UTO',
  birthDate: '740812',
  sex: 'F' as const,
  expiryDate: '120415',
};

describe('TD1 MRZ builder', () => {
  it('computes ICAO 9303 check digits', () => {
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
    expect(mrzCheckDigit('120415')).toBe('9');
    expect(mrzCheckDigit('<<<<')).toBe('0');
  });

  it('reproduces the ICAO 9303-5 TD1 specimen', () => {
    expect(buildTd1(ICAO_SPECIMEN)).toEqual([
      'I<UTOD231458907<<<<<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<6',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ]);
  });

  it('corrupts exactly the requested check digit', () => {
    const good = buildTd1(ICAO_SPECIMEN);
    const bad = buildTd1(ICAO_SPECIMEN, 'birth_date');
    expect(bad[0]).toBe(good[0]);
    expect(bad[1][6]).not.toBe(good[1][6]);
    expect(bad[1].slice(7, 29)).toBe(good[1].slice(7, 29));
  });
});
