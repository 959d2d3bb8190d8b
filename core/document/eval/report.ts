/** Text and JSON reports of the document evaluations (eval:documents). */
import type { DocumentEvaluation } from './eval-documents.js';
import type { LineEvaluation } from './eval-lines.js';
import type { SyntheticEvaluation, SyntheticRow, SyntheticScore } from './eval-synthetic.js';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** Per-document lines and the summary of a folder of documents. */
export function printDocuments(e: DocumentEvaluation): void {
  console.log(`\n${e.dir} (documents)`);
  for (const d of e.documents) {
    const failed = d.failed.length ? ` (${d.failed.join(', ')} fail)` : '';
    console.log(
      `  ${d.name.padEnd(28)} ${d.counted ? '   ' : '(-)'} ours ${(d.ours + failed).padEnd(44)} ${String(d.ms).padStart(6)} ms   tesseract ${d.peer || '-'}`,
    );
  }
  const row = (name: string, s: DocumentEvaluation['ours'] | null): string =>
    s
      ? `  ${name.padEnd(18)} ${`${s.allValid}/${s.mrzDocuments}`.padStart(7)}  ${pct(s.mrzAllValidRate).padStart(7)}   ${`${s.checkDigitsValid}/${s.mrzDocuments}`.padStart(7)}  ${pct(s.mrzCheckDigitsValidRate).padStart(7)}   ${`${s.printedValidReadValid}/${s.printedValidDocuments}`.padStart(7)}  ${pct(s.printedValidRate).padStart(7)}  found ${String(s.found).padStart(3)}`
      : `  ${name.padEnd(18)} ${e.note ?? 'skipped'}`;
  console.log('  reader             all-valid    rate   digits-valid   rate   digits-valid, printed valid');
  console.log(row('ours (PP-OCRv4)', e.ours));
  console.log(row('tesseract CLI eng', e.peer));
  for (const [name, s] of [
    ['ours (PP-OCRv4)', e.ours],
    ['tesseract CLI eng', e.peer],
  ] as const) {
    if (!s) continue;
    console.log(
      `  ${name.padEnd(18)} ms/doc p50 ${s.msPerDocP50}, p95 ${s.msPerDocP95}, max ${s.msPerDocMax}; no-MRZ max ${s.msNoMrzMax}${s.cpuMsPerDocP50 === null ? '' : `; process CPU ms/doc p50 ${s.cpuMsPerDocP50}, p95 ${s.cpuMsPerDocP95}, max ${s.cpuMsPerDocMax}`}`,
    );
    console.log(
      `  ${name.padEnd(18)} no-MRZ documents: ${s.noMrzDocuments}, valid MRZ wrongly read on ${s.noMrzFalseAccepts}; printed with wrong check digits: ${s.misprintedDocuments}, read valid ${s.misprintedReadValid}, read exactly as printed ${s.misprintedReadAsPrinted}`,
    );
  }
}

/** Character accuracy of a folder of line crops. */
export function printLines(e: LineEvaluation): void {
  console.log(`\n${e.dir} (line crops)`);
  const row = (name: string, s: LineEvaluation['ours'] | null): string =>
    s
      ? `  ${name.padEnd(18)} ${String(s.lines).padStart(5)} lines  char accuracy ${pct(s.charAccuracy).padStart(7)}  ${s.msPerLine.toFixed(0).padStart(4)} ms/line`
      : `  ${name.padEnd(18)} ${e.note ?? 'skipped'}`;
  console.log(row('ours (PP-OCRv4)', e.ours));
  console.log(row('tesseract CLI eng', e.peer));
}

/** One synthetic document's outcome, as it is read. */
export function printSyntheticRow(r: SyntheticRow): void {
  console.log(
    `  ${String(r.index).padStart(4)} ${r.format} ${r.family.padEnd(15)} ${`${r.width}x${r.height}`.padEnd(10)} ${r.outcome.padEnd(12)} ${String(r.ms).padStart(5)} ms (cpu ${String(r.cpuMs).padStart(4)})  ${r.params}`,
  );
}

/** Per family and overall figures of the synthetic benchmark (or of real documents degraded, under `title`). */
export function printSynthetic(
  e: SyntheticEvaluation,
  title = `synthetic benchmark (N ${e.n}, seed ${e.seed})`,
): void {
  const line = (name: string, s: SyntheticScore): string =>
    `  ${name.padEnd(15)} ${String(s.documents).padStart(4)}  ${pct(s.validRate).padStart(7)}  ${pct(s.exactRate).padStart(7)}  ${String(s.validButWrong).padStart(5)}   ${String(s.msP50).padStart(5)} ${String(s.msP95).padStart(5)} ${String(s.msMax).padStart(5)}   ${String(s.cpuMsP50).padStart(5)} ${String(s.cpuMsP95).padStart(5)} ${String(s.cpuMsMax).padStart(5)}`;
  console.log(`\n${title}`);
  console.log('  family          docs    valid    exact  wrong   ms p50   p95   max   cpu p50  p95   max');
  for (const [family, s] of Object.entries(e.families)) console.log(line(family, s));
  console.log(line('overall', e.overall));
}

/** The figures CI gates on, then everything. */
export function summaryJson(
  documents: readonly DocumentEvaluation[],
  lines: readonly LineEvaluation[],
  synthetic: SyntheticEvaluation | null,
): Record<string, unknown> {
  const [doc] = documents;
  const [line] = lines;
  const familyRates = synthetic ? Object.values(synthetic.families).map((s) => s.validRate) : [];
  return {
    mrzAllValidRate: doc?.ours.mrzAllValidRate ?? null,
    mrzCheckDigitsValidRate: doc?.ours.mrzCheckDigitsValidRate ?? null,
    printedValidRate: doc?.ours.printedValidRate ?? null,
    misprintedReadValid: doc?.ours.misprintedReadValid ?? null,
    charAccuracy: line?.ours.charAccuracy ?? null,
    msPerDocP50: doc?.ours.msPerDocP50 ?? null,
    msPerDocP95: doc?.ours.msPerDocP95 ?? null,
    msPerDocMax: doc?.ours.msPerDocMax ?? null,
    msNoMrzMax: doc?.ours.msNoMrzMax ?? null,
    mrzDocuments: doc?.ours.mrzDocuments ?? null,
    noMrzDocuments: doc?.ours.noMrzDocuments ?? null,
    noMrzFalseAccepts: doc?.ours.noMrzFalseAccepts ?? null,
    cpuMsPerDocP50: doc?.ours.cpuMsPerDocP50 ?? null,
    cpuMsPerDocP95: doc?.ours.cpuMsPerDocP95 ?? null,
    cpuMsPerDocMax: doc?.ours.cpuMsPerDocMax ?? null,
    synthetic: synthetic
      ? {
          n: synthetic.n,
          seed: synthetic.seed,
          validRate: synthetic.overall.validRate,
          exactRate: synthetic.overall.exactRate,
          validButWrong: synthetic.overall.validButWrong,
          lowestFamilyValidRate: Math.min(...familyRates),
          msP50: synthetic.overall.msP50,
          msP95: synthetic.overall.msP95,
          msMax: synthetic.overall.msMax,
          cpuMsP50: synthetic.overall.cpuMsP50,
          cpuMsP95: synthetic.overall.cpuMsP95,
          cpuMsMax: synthetic.overall.cpuMsMax,
          families: synthetic.families,
        }
      : null,
    peer: {
      mrzAllValidRate: doc?.peer?.mrzAllValidRate ?? null,
      mrzCheckDigitsValidRate: doc?.peer?.mrzCheckDigitsValidRate ?? null,
      charAccuracy: line?.peer?.charAccuracy ?? null,
      msPerDocP50: doc?.peer?.msPerDocP50 ?? null,
      noMrzFalseAccepts: doc?.peer?.noMrzFalseAccepts ?? null,
    },
    documents,
    lines,
    syntheticRows: synthetic?.rows ?? null,
  };
}
