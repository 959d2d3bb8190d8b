import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isCoreError } from '../../errors.js';
import { decodeImage, rgbToGray } from '../../imaging/decode.js';
import { assessLikeness } from '../likeness/index.js';
import { printTable } from './report.js';

const IMAGE = /\.(jpe?g|png|webp|tiff?|bmp)$/i;
const USAGE =
  'usage: eval:fingerprint-likeness [--json] [--list] --prints DIR... --others DIR...\n' +
  '(every image under each folder, recursively: prints must pass, others must be refused)\n';

async function imagesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await imagesUnder(path)));
    else if (IMAGE.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** One folder's outcome. */
interface FolderResult {
  folder: string;
  kind: 'prints' | 'others';
  images: number;
  /** Images the check got wrong: prints refused, or others passed. */
  wrong: string[];
  /** Files the upload decoder refuses (not counted either way). */
  undecodable: number;
  scoreP50: number;
  scoreExtreme: number;
  ms: number;
}

async function runFolder(dir: string, kind: 'prints' | 'others'): Promise<FolderResult> {
  const files = await imagesUnder(dir);
  const scores: number[] = [];
  const wrong: string[] = [];
  let undecodable = 0;
  const started = performance.now();
  for (const file of files) {
    let decoded;
    try {
      decoded = await decodeImage(await readFile(file), { field: 'file' });
    } catch (error) {
      if (!isCoreError(error)) throw error;
      undecodable++;
      continue;
    }
    const gray = {
      width: decoded.width,
      height: decoded.height,
      data: rgbToGray(decoded.rgb, decoded.width, decoded.height),
    };
    // As the engine does: only a plausible sensor resolution is trusted, other densities are placeholders.
    const dpi =
      decoded.dpi !== undefined && decoded.dpi >= 250 && decoded.dpi <= 1500 ? decoded.dpi : undefined;
    const likeness = assessLikeness(gray, dpi === undefined ? {} : { dpi });
    scores.push(likeness.score);
    if (likeness.isFingerprint !== (kind === 'prints'))
      wrong.push(`${relative(dir, file)} (${likeness.score})`);
  }
  scores.sort((a, b) => a - b);
  return {
    folder: dir,
    kind,
    images: scores.length,
    wrong,
    undecodable,
    scoreP50: scores[scores.length >> 1] ?? 0,
    scoreExtreme: kind === 'prints' ? (scores[0] ?? 0) : (scores[scores.length - 1] ?? 0),
    ms: scores.length > 0 ? (performance.now() - started) / scores.length : 0,
  };
}

/**
 * `npm run eval:fingerprint-likeness -- --prints DIR... --others DIR...`: the not-a-fingerprint check on every image
 * under the folders, read as an upload is (the project's decoder, the file's dpi when plausible). Prints the share of
 * prints refused and of other images (faces, documents...) passed, per folder and in all, with the worst score;
 * `--list` names the images it got wrong. Writes nothing.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const list = args.includes('--list');
  const prints: string[] = [];
  const others: string[] = [];
  let target: string[] | undefined;
  for (const arg of args) {
    if (arg === '--prints') target = prints;
    else if (arg === '--others') target = others;
    else if (!arg.startsWith('--')) target?.push(arg);
  }
  if (
    prints.length + others.length === 0 ||
    args.some((a) => !a.startsWith('--') && !prints.includes(a) && !others.includes(a))
  ) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const results: FolderResult[] = [];
  for (const dir of prints) results.push(await runFolder(dir, 'prints'));
  for (const dir of others) results.push(await runFolder(dir, 'others'));
  const total = (kind: 'prints' | 'others') => {
    const rs = results.filter((r) => r.kind === kind);
    const images = rs.reduce((s, r) => s + r.images, 0);
    const wrong = rs.reduce((s, r) => s + r.wrong.length, 0);
    return { images, wrong, share: images > 0 ? (100 * wrong) / images : 0 };
  };
  const summary = {
    printsRefused: total('prints'),
    othersPassed: total('others'),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...summary, folders: results })}\n`);
    return;
  }
  printTable([
    ['folder', 'kind', 'images', 'wrong', 'wrong %', 'score p50', 'worst score', 'ms/image', 'undecodable'],
    ...results.map((r) => [
      r.folder,
      r.kind,
      String(r.images),
      String(r.wrong.length),
      ((100 * r.wrong.length) / Math.max(1, r.images)).toFixed(2),
      String(r.scoreP50),
      String(r.scoreExtreme),
      r.ms.toFixed(1),
      String(r.undecodable),
    ]),
  ]);
  const p = summary.printsRefused;
  const o = summary.othersPassed;
  process.stdout.write(
    `prints refused: ${p.wrong} of ${p.images} (${p.share.toFixed(2)}%); other images passed: ${o.wrong} of ${o.images} (${o.share.toFixed(2)}%); ${summary.seconds} s\n`,
  );
  if (list)
    for (const r of results)
      for (const w of r.wrong)
        process.stdout.write(`${r.kind === 'prints' ? 'refused' : 'passed'}: ${r.folder}/${w}\n`);
}

await main();
