/**
 * `npm run eval:documents -- [--json] [--no-peer] [--step N] DIR...`
 * A folder with `*.gt.txt` files is scored as MRZ line crops (character accuracy); any other folder as
 * documents (share read with every check digit valid, ms per document). Native tesseract runs beside ours.
 */
import fs from 'node:fs';
import { evaluateDocuments, type DocumentEvaluation } from './eval-documents.js';
import { evaluateLines, type LineEvaluation } from './eval-lines.js';

interface Options {
  json: boolean;
  peer: boolean;
  step: number;
  dirs: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { json: false, peer: true, step: 1, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--json') options.json = true;
    else if (arg === '--no-peer') options.peer = false;
    else if (arg === '--step') options.step = Math.max(1, Number(argv[++i] ?? 1) || 1);
    else options.dirs.push(arg);
  }
  return options;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function printDocuments(e: DocumentEvaluation): void {
  console.log(`\n${e.dir} (documents)`);
  for (const d of e.documents) {
    console.log(
      `  ${d.name.padEnd(28)} ${d.counted ? '   ' : '(-)'} ours ${d.ours.padEnd(14)} ${String(d.ms).padStart(6)} ms   tesseract ${d.peer || '-'}`,
    );
  }
  const row = (name: string, s: DocumentEvaluation['ours'] | null): string =>
    s
      ? `  ${name.padEnd(18)} ${`${s.allValid}/${s.mrzDocuments}`.padStart(7)}  ${pct(s.mrzAllValidRate).padStart(7)}   ${`${s.checkDigitsValid}/${s.mrzDocuments}`.padStart(7)}  ${pct(s.mrzCheckDigitsValidRate).padStart(7)}  found ${String(s.found).padStart(3)}  p50 ${String(s.msPerDocP50).padStart(5)} ms${s.cpuMsPerDocP50 === null ? '' : ` (cpu ${s.cpuMsPerDocP50} ms)`}`
      : `  ${name.padEnd(18)} ${e.note ?? 'skipped'}`;
  console.log('  reader             all-valid    rate   digits-valid   rate                 ms/doc');
  console.log(row('ours (PP-OCRv4)', e.ours));
  console.log(row('tesseract CLI eng', e.peer));
  const noMrz = (name: string, s: DocumentEvaluation['ours'] | null): void => {
    if (s)
      console.log(
        `  ${name.padEnd(18)} no-MRZ documents: ${s.noMrzDocuments}, of which we wrongly found a valid MRZ on: ${s.noMrzFalseAccepts}`,
      );
  };
  noMrz('ours (PP-OCRv4)', e.ours);
  noMrz('tesseract CLI eng', e.peer);
}

function printLines(e: LineEvaluation): void {
  console.log(`\n${e.dir} (line crops)`);
  const row = (name: string, s: LineEvaluation['ours'] | null): string =>
    s
      ? `  ${name.padEnd(18)} ${String(s.lines).padStart(5)} lines  char accuracy ${pct(s.charAccuracy).padStart(7)}  ${s.msPerLine.toFixed(0).padStart(4)} ms/line`
      : `  ${name.padEnd(18)} ${e.note ?? 'skipped'}`;
  console.log(row('ours (PP-OCRv4)', e.ours));
  console.log(row('tesseract CLI eng', e.peer));
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.dirs.length === 0) {
    console.error('usage: npm run eval:documents -- [--json] [--no-peer] [--step N] DIR...');
    process.exitCode = 2;
    return;
  }
  const documents: DocumentEvaluation[] = [];
  const lines: LineEvaluation[] = [];
  for (const dir of options.dirs) {
    const isLines = fs.readdirSync(dir).some((f) => f.endsWith('.gt.txt'));
    if (isLines) {
      const e = await evaluateLines(dir, options.step, options.peer);
      lines.push(e);
      if (!options.json) printLines(e);
    } else {
      const e = await evaluateDocuments(dir, options.peer);
      documents.push(e);
      if (!options.json) printDocuments(e);
    }
  }
  if (options.json) {
    const [doc] = documents;
    const [line] = lines;
    console.log(
      JSON.stringify({
        mrzAllValidRate: doc?.ours.mrzAllValidRate ?? null,
        mrzCheckDigitsValidRate: doc?.ours.mrzCheckDigitsValidRate ?? null,
        charAccuracy: line?.ours.charAccuracy ?? null,
        msPerDocP50: doc?.ours.msPerDocP50 ?? null,
        mrzDocuments: doc?.ours.mrzDocuments ?? null,
        noMrzDocuments: doc?.ours.noMrzDocuments ?? null,
        noMrzFalseAccepts: doc?.ours.noMrzFalseAccepts ?? null,
        cpuMsPerDocP50: doc?.ours.cpuMsPerDocP50 ?? null,
        peer: {
          mrzAllValidRate: doc?.peer?.mrzAllValidRate ?? null,
          mrzCheckDigitsValidRate: doc?.peer?.mrzCheckDigitsValidRate ?? null,
          charAccuracy: line?.peer?.charAccuracy ?? null,
          msPerDocP50: doc?.peer?.msPerDocP50 ?? null,
          noMrzFalseAccepts: doc?.peer?.noMrzFalseAccepts ?? null,
        },
        documents,
        lines,
      }),
    );
  }
}

await main();
