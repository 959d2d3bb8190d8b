import fs from 'node:fs';
import path from 'node:path';
import { decodeImage } from '../../imaging/decode.js';
import { disposeMrzReader, MRZ_ALPHABET, readMrz, validateMrzLines } from '../mrz/index.js';
import { median } from './stats.js';
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
  msPerDocP50: number;
  /** CPU time (all threads of this process) per document, p50: the cost without other load on the machine. */
  cpuMsPerDocP50: number | null;
}

/** Ours and the native tesseract peer on the same documents. */
export interface DocumentEvaluation {
  dir: string;
  ours: DocumentScore;
  peer: DocumentScore | null;
  note?: string;
  /** Per document: name, whether counted, our format/validity, the peer's validity. */
  documents: { name: string; counted: boolean; ours: string; peer: string; ms: number }[];
}

const IMAGE = /\.(jpe?g|png|tiff?|webp|bmp)$/i;

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

/** Whether a document of the evaluation folder carries no MRZ (see `NO_MRZ_DOCUMENTS`). */
export function isNoMrzDocument(name: string): boolean {
  return NO_MRZ_DOCUMENTS.some((re) => re.test(name));
}

interface Row {
  counted: boolean;
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
  return {
    mrzDocuments: counted.length,
    allValid,
    mrzAllValidRate: counted.length ? allValid / counted.length : 0,
    checkDigitsValid,
    mrzCheckDigitsValidRate: counted.length ? checkDigitsValid / counted.length : 0,
    found: counted.filter((r) => r.found).length,
    noMrzDocuments: noMrz.length,
    noMrzFalseAccepts: noMrz.filter((r) => r.valid).length,
    msPerDocP50: Math.round(median(rows.map((r) => r.ms))),
    cpuMsPerDocP50: rows.every((r) => r.cpuMs !== undefined)
      ? Math.round(median(rows.map((r) => r.cpuMs ?? 0)))
      : null,
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
      const digitsValid =
        reading !== null && reading.checks.filter((c) => c.name.endsWith('CheckDigit')).every((c) => c.valid);
      ours.push({
        counted,
        valid: reading?.valid ?? false,
        digitsValid,
        found: reading !== null,
        ms,
        cpuMs: (used.user + used.system) / 1000,
      });
      const label = reading ? `${reading.format} ${reading.valid ? 'valid' : 'invalid'}` : 'none';
      documents.push({ name, counted, ours: label, peer: '', ms: Math.round(ms) });
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
    peer.push({ counted: !isNoMrzDocument(name), valid, digitsValid, found: candidates.length > 0, ms });
    const row = documents[index];
    if (row) row.peer = candidates.length ? (valid ? 'valid' : 'invalid') : 'none';
  }
  result.peer = score(peer);
  return result;
}
