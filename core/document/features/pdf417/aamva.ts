/**
 * Parser of the AAMVA DL/ID card design standard payload carried by North-American driver's licence PDF417
 * barcodes: header (compliance indicator '@', separators, 'ANSI ', IIN, versions, entry count), subfile
 * designators, and the DL/ID subfile's data elements. Pure code.
 */

/** One subfile (DL, ID or a jurisdiction-specific Z? subfile) with its data elements. */
export interface AamvaSubfile {
  type: string;
  elements: Record<string, string>;
}

/** Named fields of the DL/ID subfile, dates as ISO yyyy-mm-dd. */
export interface AamvaFields {
  documentNumber?: string;
  lastName?: string;
  firstName?: string;
  middleName?: string;
  birthDate?: string;
  expiryDate?: string;
  issueDate?: string;
  sex?: 'M' | 'F' | 'X';
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  vehicleClass?: string;
  country?: string;
}

/** A parsed AAMVA payload. */
export interface AamvaRecord {
  iin: string;
  version: number;
  jurisdictionVersion: number | null;
  subfiles: AamvaSubfile[];
  fields: AamvaFields;
}

// AAMVA's separators are control characters (LF, RS 0x1e, CR) by definition.
// eslint-disable-next-line no-control-regex -- the header's record separator is 0x1e
const HEADER = /^@\n?\x1e?\r?(ANSI |AAMVA)(\d{6})(\d{2})/;

function parseElements(body: string): Record<string, string> {
  const elements: Record<string, string> = {};
  // eslint-disable-next-line no-control-regex -- elements end at LF, CR or RS (0x1e)
  for (const raw of body.split(/[\n\r\x1e]/)) {
    const line = raw.trim();
    if (/^[A-Z]{3}/.test(line)) elements[line.slice(0, 3)] = line.slice(3).trim();
  }
  return elements;
}

/** AAMVA dates are MMDDCCYY (USA) or CCYYMMDD (Canada); anything else is dropped. */
export function parseAamvaDate(value: string | undefined, country: string | undefined): string | undefined {
  if (!value || !/^\d{8}$/.test(value)) return undefined;
  const canadian = country === 'CAN' || /^(19|20)\d{2}(0[1-9]|1[0-2])/.test(value);
  const [year, month, day] = canadian
    ? [value.slice(0, 4), value.slice(4, 6), value.slice(6, 8)]
    : [value.slice(4, 8), value.slice(0, 2), value.slice(2, 4)];
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return `${year}-${month}-${day}`;
}

function sexOf(value: string | undefined): AamvaFields['sex'] {
  if (value === '1' || value === 'M') return 'M';
  if (value === '2' || value === 'F') return 'F';
  if (value === '9' || value === 'X') return 'X';
  return undefined;
}

function fieldsOf(e: Record<string, string>): AamvaFields {
  const out: AamvaFields = {};
  const set = <K extends keyof AamvaFields>(key: K, value: AamvaFields[K] | undefined): void => {
    if (value !== undefined && value !== '') out[key] = value;
  };
  const country = e.DCG;
  // Version 1 used DAB/DAC for names and DCT for "given names" in versions 2-3; DAC/DAD from version 4 on.
  set('documentNumber', e.DAQ);
  set('lastName', e.DCS ?? e.DAB);
  set('firstName', e.DAC ?? e.DCT?.split(/[ ,]/)[0]);
  set('middleName', e.DAD);
  set('birthDate', parseAamvaDate(e.DBB, country));
  set('expiryDate', parseAamvaDate(e.DBA, country));
  set('issueDate', parseAamvaDate(e.DBD, country));
  set('sex', sexOf(e.DBC));
  set('street', e.DAG);
  set('city', e.DAI);
  set('state', e.DAJ);
  set('postalCode', e.DAK);
  set('vehicleClass', e.DCA);
  set('country', country);
  return out;
}

/**
 * Parse an AAMVA payload; null when the text is not one (no header, or no DL/ID subfile with a document number).
 * Subfile offsets are trusted when they point at their type, else the type is searched for (some issuers
 * count offsets differently).
 */
export function parseAamva(text: string): AamvaRecord | null {
  const header = HEADER.exec(text);
  if (!header) return null;
  const iin = header[2]!;
  const version = Number(header[3]);
  let cursor = header[0].length;
  let jurisdictionVersion: number | null = null;
  if (version >= 2) {
    jurisdictionVersion = Number(text.slice(cursor, cursor + 2));
    cursor += 2;
  }
  const entries = Number(text.slice(cursor, cursor + 2));
  cursor += 2;
  if (!Number.isInteger(entries) || entries < 1 || entries > 20) return null;
  const subfiles: AamvaSubfile[] = [];
  for (let i = 0; i < entries; i++) {
    const designator = text.slice(cursor + i * 10, cursor + i * 10 + 10);
    const type = designator.slice(0, 2);
    const offset = Number(designator.slice(2, 6));
    const length = Number(designator.slice(6, 10));
    if (!/^[A-Z]{2}$/.test(type) || !Number.isFinite(offset) || !Number.isFinite(length)) break;
    let start = text.startsWith(type, offset) ? offset : text.indexOf(type, cursor + entries * 10);
    if (start < 0) continue;
    start += 2;
    const end = Math.min(text.length, start + Math.max(0, length - 2));
    subfiles.push({ type, elements: parseElements(text.slice(start, end > start ? end : undefined)) });
  }
  const main = subfiles.find((s) => (s.type === 'DL' || s.type === 'ID') && s.elements.DAQ);
  if (!main) return null;
  return { iin, version, jurisdictionVersion, subfiles, fields: fieldsOf(main.elements) };
}
