/**
 * `npm run eval:documents -- [--json] [--no-peer] [--step N] [--synthetic N [--seed S]] [--augment K] [--scene] [--bent] [--shaken] [--web] [--weight] [--flatbed] [DIR...]`
 * A folder with `*.gt.txt` files is scored as MRZ line crops (character accuracy); any other folder as
 * documents (share read with every check digit valid, ms per document). Native tesseract runs beside ours.
 * `--synthetic N` renders N TD1/TD2/TD3 pages under the augmentation families and reads them (see
 * eval-synthetic.ts); `--seed` picks another reproducible set (default 1). `--augment K` also reads each document
 * folder's valid MRZ documents degraded K times by every family (see eval-augmented.ts). `--scene` also reads them
 * lying in a dark photo two and three times their size, among other print; `--bent`, bent as an open passport's page;
 * `--shaken`, smeared along and across their lines as by a shaken camera; `--web`, shrunk to web images with
 * characters 5-6 pixels wide, faint or not; `--weight`, printed with heavier and lighter strokes; `--flatbed`, laid
 * at their printed size on an A4 flatbed scan at 300 dpi (see eval-scene.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import { evaluateAugmented } from './eval-augmented.js';
import { evaluateDocuments, type DocumentEvaluation } from './eval-documents.js';
import {
  evaluateBent,
  evaluateFlatbed,
  evaluateScene,
  evaluateShaken,
  evaluateWeb,
  evaluateWeight,
  type ConditionScore,
} from './eval-scene.js';
import { evaluateLines, type LineEvaluation } from './eval-lines.js';
import { evaluateSynthetic, type SyntheticEvaluation } from './eval-synthetic.js';
import { printDocuments, printLines, printSynthetic, printSyntheticRow, summaryJson } from './report.js';

const USAGE =
  'usage: npm run eval:documents -- [--json] [--no-peer] [--step N] [--synthetic N [--seed S]] [--augment K] [--scene] [--bent] [--shaken] [--web] [--weight] [--flatbed] [DIR...]';

interface Options {
  help: boolean;
  /** An argument this command does not take, or a folder that is not there. */
  wrong?: string;
  json: boolean;
  peer: boolean;
  step: number;
  synthetic: number;
  seed: number;
  augment: number;
  scene: boolean;
  bent: boolean;
  shaken: boolean;
  web: boolean;
  flatbed: boolean;
  weight: boolean;
  dirs: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    help: false,
    json: false,
    peer: true,
    step: 1,
    synthetic: 0,
    seed: 1,
    augment: 0,
    scene: false,
    bent: false,
    shaken: false,
    web: false,
    flatbed: false,
    weight: false,
    dirs: [],
  };
  const count = (value: string | undefined, fallback: number): number => {
    const n = Number(value);
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--json') options.json = true;
    else if (arg === '--no-peer') options.peer = false;
    else if (arg === '--step') options.step = Math.max(1, count(argv[++i], 1));
    else if (arg === '--synthetic') options.synthetic = count(argv[++i], 0);
    else if (arg === '--seed') options.seed = count(argv[++i], 1);
    else if (arg === '--augment') options.augment = count(argv[++i], 0);
    else if (arg === '--scene') options.scene = true;
    else if (arg === '--bent') options.bent = true;
    else if (arg === '--shaken') options.shaken = true;
    else if (arg === '--web') options.web = true;
    else if (arg === '--flatbed') options.flatbed = true;
    else if (arg === '--weight') options.weight = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg.startsWith('-')) options.wrong ??= `unknown option ${arg}`;
    else if (!fs.existsSync(arg) || !fs.statSync(arg).isDirectory()) options.wrong ??= `no folder ${arg}`;
    else options.dirs.push(arg);
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (options.wrong || (options.dirs.length === 0 && options.synthetic === 0)) {
    if (options.wrong) console.error(options.wrong);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const loadBefore = os.loadavg()[0] ?? 0;
  const documents: DocumentEvaluation[] = [];
  const lines: LineEvaluation[] = [];
  let synthetic: SyntheticEvaluation | null = null;
  const augmented: { dir: string; validRate: number; exactRate: number; copies: number }[] = [];
  const scenes: { dir: string; conditions: ConditionScore[] }[] = [];
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
      if (options.augment > 0) {
        const a = await evaluateAugmented(
          dir,
          options.augment,
          options.seed,
          options.json ? undefined : printSyntheticRow,
        );
        augmented.push({ dir, validRate: a.overall.validRate, exactRate: a.overall.exactRate, copies: a.n });
        if (!options.json) {
          printSynthetic(
            a,
            `${dir}: ${a.n} copies (${options.augment} per family, seed ${options.seed}); exact = as read clean`,
          );
          if (a.skipped.length)
            console.log(`  not read valid as they are, left out: ${a.skipped.join(', ')}`);
        }
      }
      if (options.scene) {
        const conditions = await evaluateScene(dir);
        scenes.push({ dir, conditions });
        if (!options.json) printConditions(`${dir}: in a dark photo among other print`, conditions);
      }
      if (options.bent) {
        const conditions = await evaluateBent(dir);
        scenes.push({ dir, conditions });
        if (!options.json) printConditions(`${dir}: bent as an open passport's page`, conditions);
      }
      if (options.shaken) {
        const conditions = await evaluateShaken(dir);
        scenes.push({ dir, conditions });
        if (!options.json)
          printConditions(`${dir}: shaken, print smeared along and across its lines`, conditions);
      }
      if (options.web) {
        const conditions = await evaluateWeb(dir);
        scenes.push({ dir, conditions });
        if (!options.json) printConditions(`${dir}: shrunk to web images`, conditions);
      }
      if (options.weight) {
        const conditions = await evaluateWeight(dir);
        scenes.push({ dir, conditions });
        if (!options.json) printConditions(`${dir}: printed heavier and lighter`, conditions);
      }
      if (options.flatbed) {
        const conditions = await evaluateFlatbed(dir);
        scenes.push({ dir, conditions });
        if (!options.json) printConditions(`${dir}: laid on a flatbed scanner`, conditions);
      }
    }
  }
  if (options.synthetic > 0) {
    if (!options.json) console.log(`\nsynthetic: ${options.synthetic} documents, seed ${options.seed}`);
    synthetic = await evaluateSynthetic(
      options.synthetic,
      options.seed,
      options.json ? undefined : printSyntheticRow,
    );
    if (!options.json) printSynthetic(synthetic);
  }
  const load = [loadBefore, os.loadavg()[0] ?? 0].map((l) => l.toFixed(2));
  if (options.json) {
    console.log(
      JSON.stringify({ ...summaryJson(documents, lines, synthetic), augmented, scenes, loadAverage: load }),
    );
  } else {
    console.log(`\nload average (1 min) at start ${load[0]}, at end ${load[1]} on ${os.cpus().length} cores`);
  }
}

function printConditions(title: string, conditions: ConditionScore[]): void {
  console.log(`\n${title} (valid MRZ documents that read valid as they are)`);
  for (const c of conditions)
    console.log(
      `  ${c.condition}: ${c.valid}/${c.documents} valid, ${c.exact} as read clean; ms p50 ${c.msP50} / max ${c.msMax}${c.missed.length ? `; not valid: ${c.missed.join(', ')}` : ''}`,
    );
}

await main();
