import { basename } from 'node:path';
import { loadSet, shiftImage } from './dataset.js';
import { runSet, type SetResult } from './run-set.js';
import { writeCalibration } from './write-calibration.js';

/**
 * `npm run eval:fingerprint -- [--json] [--write-calibration] [--shift DX,DY] [--turn upright|any] DIR...`: the FVC
 * "all" protocol on each folder, a table per set and the average (or one JSON object with --json). `--shift` first
 * moves every image DX pixels right and DY down (edges repeated), to measure the same prints at another phase of the
 * block grid. `--turn` compares with that turn setting (match/index.ts), 'upright' by default.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const calibrate = args.includes('--write-calibration');
  const at = args.indexOf('--shift');
  const shift = at >= 0 ? (args[at + 1] ?? '').split(',').map(Number) : [0, 0];
  const turnAt = args.indexOf('--turn');
  const turn = turnAt >= 0 ? args[turnAt + 1] : 'upright';
  const dirs = args.filter(
    (a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1) && !(turnAt >= 0 && i === turnAt + 1),
  );
  const [dx = 0, dy = 0] = shift;
  if (
    dirs.length === 0 ||
    shift.length !== 2 ||
    ![dx, dy].every((v) => Number.isInteger(v) && v >= 0 && v < 64) ||
    (turn !== 'upright' && turn !== 'any') ||
    (calibrate && turn !== 'upright')
  ) {
    process.stderr.write(
      'usage: eval:fingerprint [--json] [--write-calibration] [--shift DX,DY] [--turn upright|any] DIR...\n' +
        '(--write-calibration fits both turns from an upright run)\n',
    );
    process.exitCode = 2;
    return;
  }
  const results: SetResult[] = [];
  for (const dir of dirs) {
    const impressions = (await loadSet(dir)).map((imp) =>
      dx || dy ? { ...imp, image: shiftImage(imp.image, dx, dy) } : imp,
    );
    const r = runSet(basename(dir.replace(/\/+$/, '')), impressions, { turn, anyTurn: calibrate });
    results.push(r);
    if (!json) process.stderr.write(`${r.name}: done\n`);
  }
  const keys = ['eer', 'fmr100', 'fmr1000', 'zeroFmr', 'extractMsP50', 'matchMsP50', 'failures'] as const;
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  const sets = results.map((r) => ({
    name: r.name,
    ...Object.fromEntries(keys.map((k) => [k, round(r[k])])),
  }));
  const average = Object.fromEntries(
    keys.map((k) => [k, round(results.reduce((s, r) => s + r[k], 0) / results.length)]),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify({ sets, average })}\n`);
  } else {
    const header = [
      'set',
      'EER%',
      'FMR100%',
      'FMR1000%',
      'ZeroFMR%',
      'extract ms p50',
      'match ms p50',
      'failures',
    ];
    const rows = [...sets, { name: 'average', ...average }].map((s) => [
      s.name,
      ...keys.map((k) => String((s as Record<string, unknown>)[k])),
    ]);
    const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
    for (const row of [header, ...rows])
      process.stdout.write(`${row.map((v, c) => v.padEnd(widths[c]!)).join('  ')}\n`);
  }
  if (calibrate) {
    const file = await writeCalibration({
      upright: results.flatMap((r) => r.impostor),
      any: results.flatMap((r) => r.impostorAnyTurn),
    });
    process.stderr.write(`calibration written to ${file}\n`);
  }
}

await main();
