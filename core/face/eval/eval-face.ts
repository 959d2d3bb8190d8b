import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_FACE_CONFIG } from '../config.js';
import { FMR_CALIBRATION_FILE } from '../calibration-store.js';
import { buildCalibration, thresholdForFmr } from '../math/calibration.js';
import { equalErrorRate, foldAccuracy, tarAtFar, type ScoredPair } from '../math/roc.js';
import { disposeFaceModels, loadFaceModels } from '../models/load-all.js';
import { embedFiles } from './embed-files.js';
import { identityOf, readLfwPairs } from './lfw-pairs.js';
import { crossIdentityScores, formatCalibration, pairScore } from './scores.js';

/**
 * npm run eval:face -- [--json] [--folds N] [--write-calibration] [--no-flip] DIR
 * LFW-format verification: cross-validated accuracy, EER, TAR at FAR 1e-2/1e-3/1e-4, ms per face; with
 * `--write-calibration`, stores the similarity-to-FMR calibration (from every cross-identity pair of the set's
 * images) as the shipped one in core/face/.
 */
const args = process.argv.slice(2);
const json = args.includes('--json');
const write = args.includes('--write-calibration');
const flip = !args.includes('--no-flip');
const foldsArg = args.indexOf('--folds');
const maxFolds = foldsArg >= 0 ? Number(args[foldsArg + 1]) : Infinity;
const dir = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--folds').pop();
if (!dir) {
  console.error('usage: npm run eval:face -- [--json] [--folds N] [--write-calibration] [--no-flip] DIR');
  process.exit(2);
}
const log = (msg: string): void => {
  if (!json) console.log(msg);
  else console.error(msg);
};

const pairs = readLfwPairs(dir).filter((p) => p.fold < maxFolds);
const files = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
log(`${pairs.length} pairs, ${files.length} images in ${dir}`);
const models = await loadFaceModels();
const config = { ...DEFAULT_FACE_CONFIG, flipAverage: flip };
const set = await embedFiles(models, files, config, (n) => {
  log(`  embedded ${n}/${files.length}`);
});
await disposeFaceModels(models);

const scored: ScoredPair[] = pairs.map((p) => ({
  score: pairScore(set.embeddings.get(p.a), set.embeddings.get(p.b)),
  genuine: p.genuine,
  fold: p.fold,
}));
const genuine = scored.filter((p) => p.genuine).map((p) => p.score);
const impostor = scored.filter((p) => !p.genuine).map((p) => p.score);
const acc = foldAccuracy(scored);
const eer = equalErrorRate(genuine, impostor);
const far = [1e-2, 1e-3, 1e-4].map((f) => tarAtFar(genuine, impostor, f));

const all = crossIdentityScores(set.embeddings, identityOf);
const calibration = buildCalibration(
  all,
  `fr_feature, two-pass fr_landmark, 5-point similarity${flip ? ', flip-averaged' : ''}`,
  `${path.basename(path.resolve(dir))}: ${all.length} cross-identity pairs of ${files.length - set.failures} images`,
);
const thresholdAt1e3 = thresholdForFmr(calibration, 1e-3);
if (write) fs.writeFileSync(FMR_CALIBRATION_FILE, formatCalibration(calibration));

const result = {
  dataset: dir,
  pairs: scored.length,
  images: files.length,
  detectionFailures: set.failures,
  accuracy: acc.mean,
  accuracyStd: acc.std,
  accuracyPerFold: acc.perFold,
  eer: eer.eer,
  tarAtFar1e2: far[0]!.tar,
  tarAtFar1e3: far[1]!.tar,
  tarAtFar1e4: far[2]!.tar,
  thresholdAtFar1e3Pairs: far[1]!.threshold,
  calibratedThresholdAtFmr1e3: thresholdAt1e3,
  msPerFace: set.msPerImage,
  calibrationWritten: write ? FMR_CALIBRATION_FILE : null,
};
if (json) console.log(JSON.stringify(result));
else {
  const pct = (v: number): string => `${(v * 100).toFixed(2)}%`;
  console.log(
    `accuracy (fold-validated) ${pct(acc.mean)} ± ${pct(acc.std)}  per fold ${acc.perFold.map(pct).join(' ')}`,
  );
  console.log(`EER ${pct(eer.eer)}`);
  console.log(`TAR @ FAR 1e-2 ${pct(far[0]!.tar)}  @ 1e-3 ${pct(far[1]!.tar)}  @ 1e-4 ${pct(far[2]!.tar)}`);
  console.log(`detection failures ${set.failures}/${files.length}, ${set.msPerImage.toFixed(1)} ms per face`);
  console.log(
    `calibration: ${all.length} impostor pairs, similarity at FMR 1e-3 = ${thresholdAt1e3.toFixed(4)}${write ? `, written to ${FMR_CALIBRATION_FILE}` : ''}`,
  );
}
