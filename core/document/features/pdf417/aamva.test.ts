import { describe, expect, it } from 'vitest';
import { buildAamvaPayload } from '../../render/aamva-payload.js';
import { parseAamva, parseAamvaDate } from './aamva.js';

describe('AAMVA parser', () => {
  it('parses header, designator and DL elements of a version 08 payload', () => {
    const payload = buildAamvaPayload('636000', {
      DAQ: 'T64235789',
      DCS: 'SAMPLE',
      DAC: 'MICHAEL',
      DAD: 'JOHN',
      DBB: '06061986',
      DBA: '06062028',
      DBC: '1',
      DAG: '2300 WEST BROAD STREET',
      DAI: 'RICHMOND',
      DAJ: 'VA',
      DCA: 'D',
      DCG: 'USA',
    });
    const record = parseAamva(payload);
    expect(record).not.toBeNull();
    expect(record?.iin).toBe('636000');
    expect(record?.version).toBe(8);
    expect(record?.jurisdictionVersion).toBe(0);
    expect(record?.subfiles.map((s) => s.type)).toEqual(['DL']);
    expect(record?.fields).toMatchObject({
      documentNumber: 'T64235789',
      lastName: 'SAMPLE',
      firstName: 'MICHAEL',
      middleName: 'JOHN',
      birthDate: '1986-06-06',
      expiryDate: '2028-06-06',
      sex: 'M',
      street: '2300 WEST BROAD STREET',
      city: 'RICHMOND',
      state: 'VA',
      vehicleClass: 'D',
      country: 'USA',
    });
  });

  it('reads a version 01 header (no jurisdiction version) with DAB surname', () => {
    const body = 'DLDAQ123456789\nDABDOE\nDACJANE\nDBB01021970\n\r';
    const text = `@\n\x1e\rANSI 6360140101DL0029${String(body.length).padStart(4, '0')}${body}`;
    const record = parseAamva(text);
    expect(record?.version).toBe(1);
    expect(record?.jurisdictionVersion).toBeNull();
    expect(record?.fields).toMatchObject({
      documentNumber: '123456789',
      lastName: 'DOE',
      firstName: 'JANE',
      birthDate: '1970-01-02',
    });
  });

  it('finds the subfile when the designator offset is off', () => {
    const payload = buildAamvaPayload('636000', { DAQ: 'X1', DCS: 'ROE', DBB: '12311999' }).replace(
      'DL0031',
      'DL0045',
    );
    expect(parseAamva(payload)?.fields.documentNumber).toBe('X1');
  });

  it('rejects text that is not AAMVA or has no document number', () => {
    expect(parseAamva('hello world')).toBeNull();
    expect(parseAamva('@\n\x1e\rANSI 63600008000')).toBeNull();
    expect(parseAamva(buildAamvaPayload('636000', { DCS: 'NONUMBER' }))).toBeNull();
  });

  it('reads US (MMDDCCYY) and Canadian (CCYYMMDD) dates', () => {
    expect(parseAamvaDate('08121974', 'USA')).toBe('1974-08-12');
    expect(parseAamvaDate('19740812', 'CAN')).toBe('1974-08-12');
    expect(parseAamvaDate('19740812', undefined)).toBe('1974-08-12');
    expect(parseAamvaDate('13401974', 'USA')).toBeUndefined();
    expect(parseAamvaDate('1974', 'USA')).toBeUndefined();
  });
});
