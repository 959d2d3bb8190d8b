import { describe, expect, it } from 'vitest';
import type { ExtractedField, FieldName } from './types.js';
import { crossCheck, licenceFieldsFromPrinted } from './printed-fields.js';

const line = (text: string, confidence = 0.9) => ({ text, confidence });
const mrz = (values: Partial<Record<FieldName, string>>): Partial<Record<FieldName, ExtractedField>> =>
  Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, { value: v, source: 'mrz', confidence: 0.99 }]),
  );

describe('printed fields', () => {
  it('reads a US licence by its labels, glued or not', () => {
    const fields = licenceFieldsFromPrinted([
      line('California DRIVER LICENSE'),
      line('DL I1234568   CLASS C'),
      line('EXP 08/31/2014'),
      line('LNCARDHOLDER'),
      line('FN IMA'),
      line('2570 24TH STREET'),
      line('ANYTOWN, CA 95818'),
      line('DOB 08/31/1977'),
    ]);
    expect(fields).toMatchObject({
      document_number: { value: 'I1234568', source: 'printed' },
      licence_class: { value: 'C' },
      expiry_date: { value: '2014-08-31' },
      surname: { value: 'CARDHOLDER' },
      given_names: { value: 'IMA' },
      date_of_birth: { value: '1977-08-31' },
      address: { value: '2570 24TH STREET, ANYTOWN, CA 95818' },
    });
  });

  it('cross-checks the MRZ against the printed zone: match, mismatch, not found', () => {
    const printed = [
      line('Surname ERIKSSON'),
      line('Given names ANNA MARIA'),
      line('Date of birth 12 AUG 1974'),
      line('Document L898902C4'),
    ];
    const result = crossCheck(
      mrz({
        surname: 'ERIKSSON',
        given_names: 'ANNA MARIA',
        document_number: 'L898902C3',
        date_of_birth: '1974-08-12',
        expiry_date: '2012-04-15',
      }),
      printed,
    );
    const status = Object.fromEntries(result.map((r) => [r.field, r.status]));
    expect(status).toEqual({
      surname: 'match',
      given_names: 'match',
      document_number: 'mismatch',
      date_of_birth: 'match',
      expiry_date: 'not_found',
    });
    expect(result.find((r) => r.field === 'document_number')?.printed).toBe('L898902C4');
  });
});
