/**
 * AAMVA DL/ID card design standard payload (the text a driver's licence PDF417 carries), for rendered test
 * cards. Pure code; the parser lives in features/pdf417/aamva.ts.
 */

/** Data elements of the DL subfile, keyed by AAMVA element id (DAQ, DCS, DAC, DBB, ...). */
export type AamvaElements = Record<string, string>;

/**
 * Build an AAMVA 2016 (version 08) payload with one DL subfile: compliance indicator '@', LF, RS, CR,
 * 'ANSI ', IIN, version, jurisdiction version, entry count, then the subfile designator (type, offset, length).
 */
export function buildAamvaPayload(iin: string, elements: AamvaElements, subfileType = 'DL'): string {
  const body = `${subfileType}${Object.entries(elements)
    .map(([id, value]) => `${id}${value}`)
    .join('\n')}\n\r`;
  const headerLength = 21;
  const designatorLength = 10;
  const offset = headerLength + designatorLength;
  const header = `@\n\x1e\rANSI ${iin.padStart(6, '0').slice(0, 6)}080001`;
  const designator = `${subfileType}${String(offset).padStart(4, '0')}${String(body.length).padStart(4, '0')}`;
  return header + designator + body;
}
