import { describe, expect, it } from 'vitest';
import { TD1_SPECIMEN, TD3_SPECIMEN } from './test-fixtures.js';
import { computeCheckDigit } from './check-digit.js';
import { isCalendarDate, validateMrzLines } from './validate.js';

describe('validateMrzLines', () => {
  it('accepts the ICAO TD3 specimen with every check and parses its fields', () => {
    const v = validateMrzLines(TD3_SPECIMEN);
    expect(v?.format).toBe('TD3');
    expect(v?.valid).toBe(true);
    expect(v?.checks.map((c) => c.name)).toEqual([
      'documentNumberCheckDigit',
      'birthDateCheckDigit',
      'expirationDateCheckDigit',
      'personalNumberCheckDigit',
      'compositeCheckDigit',
      'issuingStateCode',
      'nationalityCode',
      'birthDateCalendar',
      'expirationDateCalendar',
      'documentCode',
    ]);
    expect(v?.fields).toMatchObject({
      lastName: 'ERIKSSON',
      firstName: 'ANNA MARIA',
      documentNumber: 'L898902C3',
      birthDate: '740812',
    });
  });

  it('accepts the TD1 specimen and tells visas apart from passports', () => {
    expect(validateMrzLines(TD1_SPECIMEN)).toMatchObject({ format: 'TD1', valid: true });
    const visa = [
      'V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
    ];
    expect(validateMrzLines(visa)).toMatchObject({ format: 'MRVA', valid: true });
  });

  it('flags the failing check digit and a country code ICAO does not know', () => {
    const wrongDate = [TD3_SPECIMEN[0]!, TD3_SPECIMEN[1]!.replace('7408122', '7408132')];
    const v = validateMrzLines(wrongDate);
    expect(v?.valid).toBe(false);
    expect(v?.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual([
      'birthDateCheckDigit',
      'compositeCheckDigit',
    ]);
    const badCountry = [TD3_SPECIMEN[0]!.replace('UTO', 'MLD'), TD3_SPECIMEN[1]!];
    const c = validateMrzLines(badCountry);
    expect(c?.checks.find((x) => x.name === 'issuingStateCode')?.valid).toBe(false);
    expect(c?.valid).toBe(false);
  });

  it('flags a date the calendar lacks, even under a check digit that holds', () => {
    // Birth month 13 (a misread 0 under blur keeps the 7-3-1 sum when another digit compensates it).
    const birth = '741312';
    const head = `L898902C36UTO${birth}${computeCheckDigit(birth)}F1204159ZE184226B<<<<<1`;
    const line2 = `${head}${computeCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 43))}`;
    const v = validateMrzLines([TD3_SPECIMEN[0]!, line2]);
    expect(v?.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['birthDateCalendar']);
    expect(v?.valid).toBe(false);
  });

  it('takes a date as a calendar date: months 01-12, days within the month, 00 or fillers for a part not known', () => {
    for (const date of ['740812', '000101', '991231', '840229', '740800', '740000', '74<<<<', '7408<<'])
      expect(isCalendarDate(date), date).toBe(true);
    for (const date of ['741308', '740832', '740231', '740431', '7408', '74O812', '7<0812'])
      expect(isCalendarDate(date), date).toBe(false);
  });

  it("flags a document code its format does not have: a passport's is P, a card's A, C or I", () => {
    // A name line read askew keeps every check digit (none covers it) and can still show a country ICAO knows.
    const askew = validateMrzLines(['IIITAUSCAUSCENISEANESANE<<<<<<<<<<<<<<<<<<<<', TD3_SPECIMEN[1]!]);
    expect(askew?.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['documentCode']);
    expect(askew?.valid).toBe(false);
    const card = [`C${TD1_SPECIMEN[0]!.slice(1)}`, ...TD1_SPECIMEN.slice(1)];
    expect(validateMrzLines(card)?.valid).toBe(true);
    const passportCard = [`P${TD1_SPECIMEN[0]!.slice(1)}`, ...TD1_SPECIMEN.slice(1)];
    expect(validateMrzLines(passportCard)?.valid).toBe(false);
  });

  it('checks a TD1 document number continued in the optional field', () => {
    // ICAO 9303-5: 12-character number D23145890123, check digit 3 after the overflow, filler in position 15.
    const lines = [
      'I<UTOD23145890<1233<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<2',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ];
    const v = validateMrzLines(lines);
    expect(v?.checks.find((c) => c.name === 'documentNumberCheckDigit')?.valid).toBe(true);
    expect(v?.valid).toBe(true);
  });

  it('checks a French national ID card by its own layout, not as TD2', () => {
    const lines = ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '8806923102858CORINNE<<<<<<<6512068F6'];
    const v = validateMrzLines(lines);
    expect(v).toMatchObject({ format: 'FRENCH_ID', valid: true });
    expect(v?.checks.map((c) => c.name)).toEqual([
      'documentNumberCheckDigit',
      'birthDateCheckDigit',
      'compositeCheckDigit',
      'issuingStateCode',
      'birthDateCalendar',
      'documentCode',
    ]);
    expect(v?.fields).toMatchObject({ lastName: 'BERTHIER', firstName: 'CORINNE', birthDate: '651206' });
    // The composite covers both lines: a changed surname letter breaks it.
    const forged = validateMrzLines([lines[0]!.replace('BERTHIER', 'BERTHIEZ'), lines[1]!]);
    expect(forged?.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['compositeCheckDigit']);
  });

  it('returns null for text that is no MRZ shape', () => {
    expect(validateMrzLines(['HELLO', 'WORLD'])).toBeNull();
    expect(validateMrzLines([TD3_SPECIMEN[0]!, 'SHORT'])).toBeNull();
  });
});
