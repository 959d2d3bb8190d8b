import { describe, expect, it } from 'vitest';
import type { MrzReading } from '../mrz/index.js';
import { validateMrzLines } from '../mrz/index.js';
import { TD1_SPECIMEN, TD3_SPECIMEN } from '../mrz/test-fixtures.js';
import { documentTypeOfMrz, fieldsFromMrz } from './mrz-fields.js';

function readingOf(lines: string[]): MrzReading {
  const v = validateMrzLines(lines);
  if (!v) throw new Error('not an MRZ');
  return { ...v, lines, region: { x: 0, y: 0, width: 1, height: 1 }, confidence: 0.97, ms: 1 };
}

describe('fields from the MRZ', () => {
  it('maps the TD3 specimen to the service fields with ISO dates', () => {
    const fields = fieldsFromMrz(readingOf(TD3_SPECIMEN), new Date('2026-01-01T00:00:00Z'));
    expect(fields).toMatchObject({
      surname: { value: 'ERIKSSON', source: 'mrz' },
      given_names: { value: 'ANNA MARIA' },
      document_number: { value: 'L898902C3', confidence: 0.99 },
      nationality: { value: 'UTO' },
      issuing_country: { value: 'UTO' },
      date_of_birth: { value: '1974-08-12' },
      expiry_date: { value: '2012-04-15' },
      sex: { value: 'F' },
    });
  });

  it('keeps a value under a failed check digit with a low confidence', () => {
    const lines = [TD3_SPECIMEN[0]!, TD3_SPECIMEN[1]!.replace('7408122', '7408132')];
    const fields = fieldsFromMrz(readingOf(lines));
    expect(fields.date_of_birth?.value).toBe('1974-08-13');
    expect(fields.date_of_birth?.confidence).toBeLessThanOrEqual(0.5);
    expect(fields.document_number?.confidence).toBe(0.99);
  });

  it('maps a French national ID card: its whole 12-character number, no expiry, no nationality', () => {
    const lines = ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '8806923102858CORINNE<<<<<<<6512068F6'];
    const fields = fieldsFromMrz(readingOf(lines), new Date('2026-01-01T00:00:00Z'));
    expect(fields).toMatchObject({
      surname: { value: 'BERTHIER' },
      given_names: { value: 'CORINNE' },
      document_number: { value: '880692310285', confidence: 0.99 },
      issuing_country: { value: 'FRA' },
      date_of_birth: { value: '1965-12-06' },
      sex: { value: 'F' },
    });
    expect(fields.expiry_date).toBeUndefined();
    expect(fields.nationality).toBeUndefined();
    expect(documentTypeOfMrz(readingOf(lines))).toBe('id_card');
  });

  it('tells passports, identity cards and visas apart', () => {
    expect(documentTypeOfMrz(readingOf(TD3_SPECIMEN))).toBe('passport');
    expect(documentTypeOfMrz(readingOf(TD1_SPECIMEN))).toBe('id_card');
    expect(documentTypeOfMrz({ format: 'MRVB', lines: ['V<UTO'] })).toBe('visa');
  });
});
