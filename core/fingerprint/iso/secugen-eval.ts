/**
 * How well do SecuGen's ISO minutiae (the `*.secugen_iso` folders of the evaluation data) agree with our
 * extractor's minutiae on the same images? Prints, per set, the share of SecuGen minutiae that pair with one
 * of ours within 10 px and 30 degrees: read as the standard says (positions in SecuGen's 300x400 frame centred
 * on the image), after a per-image translation fit, and, as a control, with every angle turned by 180 degrees.
 * Usage: npm run eval:fingerprint-iso [-- --data /work/shared/data/fingerprints]
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeImage, rgbToGray } from '../../imaging/decode.js';
import { extractFeatures } from '../extract/index.js';
import type { Minutia } from '../types.js';
import { decodeIsoRecord, isoRecordToFeatures } from './iso19794-2.js';
import { bestTranslation, countPairs } from './pairing.js';

const argIndex = process.argv.indexOf('--data');
const root = argIndex > 0 ? (process.argv[argIndex + 1] ?? '') : '/work/shared/data/fingerprints';
if (!fs.existsSync(root)) {
  console.log(`No evaluation data at ${root}: nothing to compare.`);
  process.exit(0);
}
const sets = fs
  .readdirSync(root)
  .filter((d) => d.endsWith('.secugen_iso'))
  .map((d) => d.replace(/\.secugen_iso$/, ''));
const rows: string[] = [
  '| set | SecuGen minutiae | ours | paired, centred frame | paired, per-image shift | control: angles turned 180° |',
  '| --- | --- | --- | --- | --- | --- |',
];
const total = { theirs: 0, ours: 0, centred: 0, fitted: 0, turned: 0 };
for (const set of sets) {
  const acc = { theirs: 0, ours: 0, centred: 0, fitted: 0, turned: 0 };
  for (const name of fs
    .readdirSync(path.join(root, `${set}.secugen_iso`))
    .filter((n) => n.endsWith('.iso'))
    .sort()) {
    const imageFile = path.join(root, set, name.replace(/\.iso$/, '.tif'));
    if (!fs.existsSync(imageFile)) continue;
    const record = decodeIsoRecord(fs.readFileSync(path.join(root, `${set}.secugen_iso`, name)));
    const theirs = isoRecordToFeatures(record).minutiae;
    const image = await decodeImage(fs.readFileSync(imageFile), { field: 'file' });
    const ours = extractFeatures(
      { width: image.width, height: image.height, data: rgbToGray(image.rgb, image.width, image.height) },
      { dpi: 500 },
    ).minutiae;
    const shift = (list: Minutia[], dx: number, dy: number): Minutia[] =>
      list.map((m) => ({ ...m, x: m.x + dx, y: m.y + dy }));
    const cx = (image.width - record.width) / 2;
    const cy = (image.height - record.height) / 2;
    const fit = bestTranslation(ours, theirs);
    const turned = isoRecordToFeatures(record, { angleOffset: Math.PI }).minutiae;
    acc.theirs += theirs.length;
    acc.ours += ours.length;
    acc.centred += countPairs(ours, shift(theirs, cx, cy));
    acc.fitted += countPairs(ours, shift(theirs, fit.dx, fit.dy));
    const turnedFit = bestTranslation(ours, turned);
    acc.turned += countPairs(ours, shift(turned, turnedFit.dx, turnedFit.dy));
  }
  const pct = (n: number): string => `${((100 * n) / Math.max(1, acc.theirs)).toFixed(1)}%`;
  rows.push(
    `| ${set} | ${acc.theirs} | ${acc.ours} | ${pct(acc.centred)} | ${pct(acc.fitted)} | ${pct(acc.turned)} |`,
  );
  for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += acc[k];
}
const pct = (n: number): string => `${((100 * n) / Math.max(1, total.theirs)).toFixed(1)}%`;
rows.push(
  `| all | ${total.theirs} | ${total.ours} | ${pct(total.centred)} | ${pct(total.fitted)} | ${pct(total.turned)} |`,
);
console.log('SecuGen ISO minutiae paired with ours (within 10 px and 30 degrees):');
console.log(rows.join('\n'));
