import { describe, expect, it } from 'vitest';
import { validateMrzLines } from '../mrz/validate.js';
import { buildMrz, MRZ_SHAPE, type TravelFormat } from './mrz-text.js';
import { randomDocument, seededRandom } from './random-document.js';

const SPECIMEN = {
  documentCode: 'P',
  issuingState: 'UTO',
  documentNumber: 'L898902C3',
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  nationality: 'UTO',
  birthDate: '740812',
  sex: 'F' as const,
  expiryDate: '120415',
  optionalData: 'ZE184226B',
};

describe('MRZ text of rendered documents', () => {
  it('reproduces the ICAO 9303-4 TD3 specimen', () => {
    expect(buildMrz('TD3', SPECIMEN)).toEqual([
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
    ]);
  });

  it('reproduces the ICAO 9303-6 TD2 specimen', () => {
    expect(
      buildMrz('TD2', { ...SPECIMEN, documentCode: 'I', documentNumber: 'D23145890', optionalData: '' }),
    ).toEqual(['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6']);
  });

  it('builds valid random documents of every format, and breaks exactly the check asked for', () => {
    const random = seededRandom(3);
    for (const format of ['TD1', 'TD2', 'TD3'] as TravelFormat[]) {
      for (let i = 0; i < 20; i++) {
        const doc = randomDocument(random, format);
        const lines = buildMrz(format, doc);
        expect(lines.map((l) => l.length)).toEqual(
          Array(MRZ_SHAPE[format].lines).fill(MRZ_SHAPE[format].length),
        );
        expect(validateMrzLines(lines)?.valid).toBe(true);
        const forged = validateMrzLines(buildMrz(format, doc, 'birth_date'));
        expect(forged?.checks.filter((c) => !c.valid).map((c) => c.name)).toEqual(['birthDateCheckDigit']);
      }
    }
  });

  it('draws the same documents from the same seed', () => {
    expect(randomDocument(seededRandom(9), 'TD3')).toEqual(randomDocument(seededRandom(9), 'TD3'));
    expect(randomDocument(seededRandom(9), 'TD3')).not.toEqual(randomDocument(seededRandom(10), 'TD3'));
  });
});
