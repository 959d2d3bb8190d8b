import fs from 'node:fs';
import path from 'node:path';
import { decodeImage } from '../../imaging/decode.js';
import { disposeMrzReader, MRZ_ALPHABET, readMrz, validateMrzLines } from '../mrz/index.js';
import { median, percentile } from './stats.js';
import { hasTesseractCli, mrzLinesFromText, tesseractCli } from './tesseract-cli.js';

/** One reader's figures over a folder of documents. */
export interface DocumentScore {
  /** Documents counted as carrying an MRZ (all but those `isNoMrzDocument` names). */
  mrzDocuments: number;
  /** Of those, read valid: every check digit and both country codes (ICAO list). */
  allValid: number;
  mrzAllValidRate: number;
  /** Of those, read with every check digit valid (country codes not required). */
  checkDigitsValid: number;
  mrzCheckDigitsValidRate: number;
  /** Of those, documents where an MRZ zone was found at all (valid or not). */
  found: number;
  /** Documents without an MRZ (not in the rates above). */
  noMrzDocuments: number;
  /** Of those, documents on which a valid MRZ was read anyway: false accepts, must be 0. */
  noMrzFalseAccepts: number;
  /** Of the documents carrying an MRZ, those whose printed check digits all hold (see `PRINTED_INVALID`). */
  printedValidDocuments: number;
  /** Of those, read with every check digit valid: the rate the reader can reach. */
  printedValidReadValid: number;
  printedValidRate: number;
  /** Documents printed with a wrong check digit: read valid (a false accept, must be 0) and read as printed. */
  misprintedDocuments: number;
  misprintedReadValid: number;
  misprintedReadAsPrinted: number;
  /** ms per document over all documents, and the slowest document without an MRZ. */
  msPerDocP50: number;
  msPerDocP95: number;
  msPerDocMax: number;
  msNoMrzMax: number;
  /** CPU time (all threads of this process) per document, p50: the cost without other load on the machine. */
  cpuMsPerDocP50: number | null;
  cpuMsPerDocP95: number | null;
  cpuMsPerDocMax: number | null;
}

/** Ours and the native tesseract peer on the same documents. */
export interface DocumentEvaluation {
  dir: string;
  ours: DocumentScore;
  peer: DocumentScore | null;
  note?: string;
  /** Per document: name, whether counted, our format/validity, the peer's validity. */
  documents: { name: string; counted: boolean; ours: string; peer: string; ms: number; failed: string[] }[];
}

/** Image files of an evaluation folder. */
export const IMAGE = /\.(jpe?g|png|tiff?|webp|bmp)$/i;

/**
 * Documents of the evaluation folder that carry no MRZ, so the rates are over the documents that do.
 * `nomrz.*` and `pacman.*` by the data set's README; the others checked by eye: no MRZ printed
 * (kbyai_1: a California driver's licence; kbyai_3: the front of a French identity card, whose MRZ is on
 * the back; tesseract-test1 and tesseract-test2: pages of plain text). They are still read, and reported
 * apart: a valid MRZ read on one of them is a false accept.
 */
const NO_MRZ_DOCUMENTS = [
  /^nomrz\./i,
  /^pacman\./i,
  /^kbyai_1\./i,
  /^kbyai_3\./i,
  /^tesseract-test1\./i,
  /^tesseract-test2\./i,
];

/**
 * Documents of the evaluation folder whose MRZ is printed with wrong check digits (checked by hand against
 * ICAO 9303): the check digits that fail as printed. A reader must read them invalid, and at best exactly so.
 * 0_id-esp: document number AAA100001 carries 4 (it is 8), birth date 721201 carries 8 (it is 1);
 * 33_id-usa: document number 022345679 carries 1 (it is 8); 77_card-cmw: the composite (1, it is 0).
 */
const PRINTED_INVALID: [RegExp, string[]][] = [
  [/^0_id-esp\./i, ['documentNumber', 'birthDate', 'composite']],
  [/^33_id-usa\./i, ['documentNumber', 'composite']],
  [/^77_card-cmw\./i, ['composite']],
];

/** The check digits a document of the evaluation folder fails as printed (empty when they all hold). */
export function printedFailures(name: string): string[] {
  return PRINTED_INVALID.find(([re]) => re.test(name))?.[1] ?? [];
}

/** Whether a document of the evaluation folder carries no MRZ (see `NO_MRZ_DOCUMENTS`). */
export function isNoMrzDocument(name: string): boolean {
  return NO_MRZ_DOCUMENTS.some((re) => re.test(name));
}

/** Images of `dir` that carry an MRZ printed valid, sorted: the documents a degraded copy's reading is scored on. */
export function printedValidDocuments(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => IMAGE.test(f) && !isNoMrzDocument(f) && printedFailures(f).length === 0)
    .sort();
}

interface Row {
  counted: boolean;
  /** Check digits that fail as printed. */
  misprinted: string[];
  /** Check digits that failed in the reading (null when nothing was read). */
  failed: string[] | null;
  valid: boolean;
  digitsValid: boolean;
  found: boolean;
  ms: number;
  cpuMs?: number;
}

function score(rows: Row[]): DocumentScore {
  const counted = rows.filter((r) => r.counted);
  const noMrz = rows.filter((r) => !r.counted);
  const allValid = counted.filter((r) => r.valid).length;
  const checkDigitsValid = counted.filter((r) => r.digitsValid).length;
  const printedValid = counted.filter((r) => r.misprinted.length === 0);
  const misprinted = counted.filter((r) => r.misprinted.length > 0);
  const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === b.length && a.every((x) => b.includes(x));
  const ms = rows.map((r) => r.ms);
  const cpu = rows.every((r) => r.cpuMs !== undefined) ? rows.map((r) => r.cpuMs ?? 0) : null;
  return {
    mrzDocuments: counted.length,
    allValid,
    mrzAllValidRate: counted.length ? allValid / counted.length : 0,
    checkDigitsValid,
    mrzCheckDigitsValidRate: counted.length ? checkDigitsValid / counted.length : 0,
    found: counted.filter((r) => r.found).length,
    noMrzDocuments: noMrz.length,
    noMrzFalseAccepts: noMrz.filter((r) => r.valid).length,
    printedValidDocuments: printedValid.length,
    printedValidReadValid: printedValid.filter((r) => r.digitsValid).length,
    printedValidRate: printedValid.length
      ? printedValid.filter((r) => r.digitsValid).length / printedValid.length
      : 0,
    misprintedDocuments: misprinted.length,
    misprintedReadValid: misprinted.filter((r) => r.digitsValid).length,
    misprintedReadAsPrinted: misprinted.filter((r) => r.failed && sameSet(r.failed, r.misprinted)).length,
    msPerDocP50: Math.round(median(ms)),
    msPerDocP95: Math.round(percentile(ms, 0.95)),
    msPerDocMax: Math.round(Math.max(0, ...ms)),
    msNoMrzMax: Math.round(Math.max(0, ...noMrz.map((r) => r.ms))),
    cpuMsPerDocP50: cpu ? Math.round(median(cpu)) : null,
    cpuMsPerDocP95: cpu ? Math.round(percentile(cpu, 0.95)) : null,
    cpuMsPerDocMax: cpu ? Math.round(Math.max(0, ...cpu)) : null,
  };
}

/** Read every document of a folder with `readMrz` and with the native tesseract CLI (eng, MRZ whitelist). */
export async function evaluateDocuments(dir: string, withPeer = true): Promise<DocumentEvaluation> {
  const names = fs
    .readdirSync(dir)
    .filter((f) => IMAGE.test(f))
    .sort();
  const ours: Row[] = [];
  const documents: DocumentEvaluation['documents'] = [];
  try {
    for (const name of names) {
      const image = await decodeImage(fs.readFileSync(path.join(dir, name)), { field: 'image' });
      const started = performance.now();
      const cpu = process.cpuUsage();
      const reading = await readMrz(image);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const counted = !isNoMrzDocument(name);
      const digitChecks = reading?.checks.filter((c) => c.name.endsWith('CheckDigit')) ?? [];
      const digitsValid = reading !== null && digitChecks.every((c) => c.valid);
      const failed = reading
        ? digitChecks.filter((c) => !c.valid).map((c) => c.name.replace(/CheckDigit$/, ''))
        : null;
      ours.push({
        counted,
        misprinted: printedFailures(name),
        failed,
        valid: reading?.valid ?? false,
        digitsValid,
        found: reading !== null,
        ms,
        cpuMs: (used.user + used.system) / 1000,
      });
      const label = reading ? `${reading.format} ${reading.valid ? 'valid' : 'invalid'}` : 'none';
      documents.push({ name, counted, ours: label, peer: '', ms: Math.round(ms), failed: failed ?? [] });
    }
  } finally {
    await disposeMrzReader();
  }
  const result: DocumentEvaluation = { dir, ours: score(ours), peer: null, documents };
  if (!withPeer) return { ...result, note: 'peer skipped (--no-peer)' };
  if (!(await hasTesseractCli()))
    return {
      ...result,
      note: 'peer skipped: the tesseract CLI is not installed (apt package tesseract-ocr)',
    };
  const peer: Row[] = [];
  for (const [index, name] of names.entries()) {
    const started = performance.now();
    const text = await tesseractCli(path.join(dir, name), 3, MRZ_ALPHABET);
    const candidates = mrzLinesFromText(text)
      .map((lines) => validateMrzLines(lines))
      .filter((v) => v !== null);
    const ms = performance.now() - started;
    const valid = candidates.some((v) => v.valid);
    const digitsValid = candidates.some((v) =>
      v.checks.filter((c) => c.name.endsWith('CheckDigit')).every((c) => c.valid),
    );
    peer.push({
      counted: !isNoMrzDocument(name),
      misprinted: printedFailures(name),
      failed: null,
      valid,
      digitsValid,
      found: candidates.length > 0,
      ms,
    });
    const row = documents[index];
    if (row) row.peer = candidates.length ? (valid ? 'valid' : 'invalid') : 'none';
  }
  result.peer = score(peer);
  return result;
}
