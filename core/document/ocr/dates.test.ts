import { describe, expect, it } from 'vitest';
import { mrzDateToIso, printedDatesIn } from './dates.js';

const today = new Date('2026-11-22T12:00:00Z');

describe('MRZ dates', () => {
  it('puts birth dates in the past and expiry dates up to 20 years ahead', () => {
    expect(mrzDateToIso('740812', 'birth', today)).toBe('1974-08-12');
    expect(mrzDateToIso('050101', 'birth', today)).toBe('2005-01-01');
    expect(mrzDateToIso('261123', 'birth', today)).toBe('1926-11-23');
    expect(mrzDateToIso('120415', 'expiry', today)).toBe('2012-04-15');
    expect(mrzDateToIso('340101', 'expiry', today)).toBe('2034-01-01');
    expect(mrzDateToIso('690101', 'expiry', today)).toBe('1969-01-01');
  });

  it('refuses impossible dates and unknown parts', () => {
    expect(mrzDateToIso('741332', 'birth', today)).toBeNull();
    expect(mrzDateToIso('010229', 'birth', today)).toBeNull();
    expect(mrzDateToIso('0002<<', 'birth', today)).toBeNull();
  });

  it('finds printed dates in the usual layouts', () => {
    expect(printedDatesIn('Date of birth 12 AUG/AOUT 1974 expiry 15.04.2012')).toEqual([
      '1974-08-12',
      '2012-04-15',
    ]);
    expect(printedDatesIn('EXP 08/31/2014')).toEqual(['2014-08-31']);
    expect(printedDatesIn('nothing here')).toEqual([]);
  });
});
