import os from 'node:os';
import { conditionName, ROBUST_CONDITIONS, type Condition } from './conditions.js';
import { setName, type EvalJob } from './jobs.js';
import { runJobs } from './parallel.js';
import { printTable, robustReport, setFigures } from './report.js';
import { writeCalibration } from './write-calibration.js';

const USAGE =
  'usage: eval:fingerprint [--json] [--protocol all|robust] [--workers N] [--write-calibration]\n' +
  '                        [--shift DX,DY | --scale F | --rotate DEG] [--turn upright|any] DIR...\n' +
  '(--write-calibration fits both turns from an upright run of the "all" protocol on the images as given)\n';

/** The value after a flag, or undefined; `used` collects the argument positions that are not folders. */
function flag(args: string[], name: string, used: Set<number>): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  used.add(at).add(at + 1);
  return args[at + 1] ?? '';
}

/** The one condition of an "all" run, or undefined when the arguments make no sense. */
function singleCondition(shift?: string, scale?: string, rotate?: string): Condition | undefined {
  const given = [shift, scale, rotate].filter((v) => v !== undefined).length;
  if (given > 1) return undefined;
  if (scale !== undefined) {
    const factor = Number(scale);
    return factor >= 0.5 && factor <= 2 ? { kind: 'scale', factor } : undefined;
  }
  if (rotate !== undefined) {
    const degrees = Number(rotate);
    return Number.isFinite(degrees) && Math.abs(degrees) <= 180 ? { kind: 'turn', degrees } : undefined;
  }
  const [dx = 0, dy = 0, ...rest] = (shift ?? '0,0').split(',').map(Number);
  const ok = rest.length === 0 && [dx, dy].every((v) => Number.isInteger(v) && v >= 0 && v < 64);
  return ok ? { kind: 'shift', dx, dy } : undefined;
}

/**
 * `npm run eval:fingerprint -- [options] DIR...`: the FVC "all" protocol on each folder (every same-finger pair
 * genuine, every cross-finger pair impostor; any number of impressions per finger; TIFF, PNG, JPEG or BMP), a table
 * per set and the average, or one JSON object with --json. `--protocol robust` runs every set under each of
 * ROBUST_CONDITIONS (five grid shifts, scales 0.88 and 1.14 read as 500 dpi, turned by 15 degrees each way) and
 * prints each set's EER per condition and the means. `--shift`, `--scale` and `--rotate` run "all" under one such
 * condition. `--turn` is the matcher's turn setting (match/index.ts), 'upright' by default. `--workers N` runs the
 * sets and conditions on N threads. Nothing is written unless `--write-calibration` is given.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const used = new Set<number>();
  const json = args.includes('--json');
  const calibrate = args.includes('--write-calibration');
  const protocol = flag(args, '--protocol', used) ?? 'all';
  const turn = flag(args, '--turn', used) ?? 'upright';
  const workers = Number(flag(args, '--workers', used) ?? 1);
  const condition = singleCondition(
    flag(args, '--shift', used),
    flag(args, '--scale', used),
    flag(args, '--rotate', used),
  );
  const dirs = args.filter((a, i) => !a.startsWith('--') && !used.has(i));
  const robust = protocol === 'robust';
  if (
    dirs.length === 0 ||
    !condition ||
    (protocol !== 'all' && !robust) ||
    (turn !== 'upright' && turn !== 'any') ||
    !Number.isInteger(workers) ||
    workers < 1 ||
    workers > Math.max(1, os.availableParallelism()) ||
    (calibrate && (turn !== 'upright' || robust || conditionName(condition) !== 'shift 0,0'))
  ) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const conditions = robust ? ROBUST_CONDITIONS : [condition];
  const jobs: EvalJob[] = dirs.flatMap((dir) =>
    conditions.map((c) => ({ dir, condition: c, turn, anyTurn: calibrate, keepScores: calibrate })),
  );
  const started = performance.now();
  const results = await runJobs(jobs, workers, (job) => {
    if (!json) process.stderr.write(`${setName(job.dir)} ${conditionName(job.condition)}: done\n`);
  });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  if (robust) {
    const report = robustReport(dirs.map(setName), conditions.map(conditionName), results);
    if (json) process.stdout.write(`${JSON.stringify({ protocol, seconds, ...report })}\n`);
    else {
      printTable(report.table);
      const refused = report.sets.reduce((n, r) => n + r.refused.reduce((a, b) => a + b, 0), 0);
      process.stdout.write(`impressions refused as not a fingerprint, all conditions: ${refused}\n`);
    }
  } else {
    const figures = setFigures(results);
    if (json)
      process.stdout.write(
        `${JSON.stringify({ protocol, condition: conditionName(condition), seconds, ...figures })}\n`,
      );
    else printTable(figures.table);
  }
  if (!json) process.stderr.write(`${seconds} s\n`);
  if (calibrate) {
    const file = await writeCalibration({
      upright: results.flatMap((r) => r.impostor),
      any: results.flatMap((r) => r.impostorAnyTurn),
    });
    process.stderr.write(`calibration written to ${file}\n`);
  }
}

await main();
