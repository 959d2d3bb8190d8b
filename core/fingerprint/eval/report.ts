import type { SetResult } from './run-set.js';

const round = (v: number): number => Math.round(v * 1000) / 1000;
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);

/** Figures of an "all" run, per set, in the order given. */
const KEYS = [
  'eer',
  'fmr100',
  'fmr1000',
  'zeroFmr',
  'genuineSpearman',
  'eerAfterDrop',
  'extractMsP50',
  'matchMsP50',
  'failures',
  'refused',
] as const;
const HEADERS = [
  'EER%',
  'FMR100%',
  'FMR1000%',
  'ZeroFMR%',
  'quality rho',
  'EER% -5% low q',
  'extract ms p50',
  'match ms p50',
  'failures',
  'not a print',
];

/** Per-set figures and their average, as JSON-ready objects and as a text table. */
export function setFigures(results: SetResult[]): {
  sets: Record<string, number | string>[];
  average: Record<string, number>;
  table: string[][];
} {
  const sets = results.map((r) => ({
    name: r.name,
    ...Object.fromEntries(KEYS.map((k) => [k, round(r[k])])),
  }));
  const average = Object.fromEntries(KEYS.map((k) => [k, round(mean(results.map((r) => r[k])))]));
  const table = [
    ['set', ...HEADERS],
    ...[...sets, { name: 'average', ...average }].map((s) => [
      s.name,
      ...KEYS.map((k) => String((s as Record<string, unknown>)[k])),
    ]),
  ];
  return { sets, average, table };
}

/**
 * The robust protocol's report: each set's EER under each condition and its mean over them, the mean of each
 * condition over the sets, the overall mean (the robust mean) and the mean of the first condition (the sets as
 * given: the "all" figure). `results` holds the sets in order, each with its conditions in order.
 */
export function robustReport(
  sets: string[],
  conditions: string[],
  results: SetResult[],
): {
  conditions: string[];
  sets: { name: string; eer: number[]; mean: number; refused: number[] }[];
  conditionMeans: number[];
  asGiven: number;
  robustMean: number;
  table: string[][];
} {
  const rows = sets.map((name, s) => {
    const eer = conditions.map((_, c) => results[s * conditions.length + c]!.eer);
    const refused = conditions.map((_, c) => results[s * conditions.length + c]!.refused);
    return { name, eer: eer.map(round), mean: round(mean(eer)), refused };
  });
  const conditionMeans = conditions.map((_, c) => round(mean(rows.map((r) => r.eer[c]!))));
  const robustMean = round(mean(rows.map((r) => r.mean)));
  const table = [
    ['set', ...conditions, 'mean'],
    ...rows.map((r) => [r.name, ...r.eer.map(String), String(r.mean)]),
    ['mean', ...conditionMeans.map(String), String(robustMean)],
  ];
  return { conditions, sets: rows, conditionMeans, asGiven: conditionMeans[0]!, robustMean, table };
}

/** Write a table with padded columns to stdout. */
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const row of rows) process.stdout.write(`${row.map((v, c) => v.padEnd(widths[c]!)).join('  ')}\n`);
}
