import fs from 'node:fs';
import path from 'node:path';
import { decodeImage } from '../../imaging/decode.js';
import {
  LIVENESS_CALIBRATION_FILE,
  readLivenessCalibration,
  type LivenessCalibration,
} from '../calibration-store.js';
import { DEFAULT_FACE_CONFIG } from '../config.js';
import { auc, minAcerThreshold, padRates, type LabelledScore } from '../math/pad-metrics.js';
import { disposeFaceModels, loadFaceModels } from '../models/load-all.js';
import { livenessScore } from '../pipeline/liveness.js';
import { readLivenessSet, readSamples, type LivenessItem } from './liveness-data.js';

/**
 * npm run eval:liveness -- [--json] [--write-calibration] [--step N] DIR
 * Liveness evaluation of a labelled folder (NUAA's ClientFace/ + ImposterFace/, or real/ + fake/): AUC, and
 * APCER/BPCER/ACER at the shipped threshold (core/face/liveness-calibration.json) beside the best-on-data figure.
 * `--write-calibration` stores the best-on-data threshold as the new shipped one. A samples/ folder beside DIR is
 * reported at the shipped threshold too.
 */
const args = process.argv.slice(2);
const json = args.includes('--json');
const write = args.includes('--write-calibration');
const stepAt = args.indexOf('--step');
const step = stepAt >= 0 ? Math.max(1, Number(args[stepAt + 1])) : 1;
const dir = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--step').pop();
if (!dir) {
  console.error('usage: npm run eval:liveness -- [--json] [--write-calibration] [--step N] DIR');
  process.exit(2);
}
const log = (msg: string): void => {
  if (json) console.error(msg);
  else console.log(msg);
};

const models = await loadFaceModels();
let faceFound = 0;
let totalMs = 0;
async function score(items: readonly LivenessItem[]): Promise<(LabelledScore & LivenessItem)[]> {
  const out: (LabelledScore & LivenessItem)[] = [];
  for (const item of items) {
    const d = await decodeImage(fs.readFileSync(item.file), { field: 'image' });
    const t = performance.now();
    const r = await livenessScore(models, DEFAULT_FACE_CONFIG, {
      data: d.rgb,
      width: d.width,
      height: d.height,
      channels: 3,
    });
    totalMs += performance.now() - t;
    if (r.face) faceFound++;
    out.push({ ...item, score: r.score });
  }
  return out;
}

const shipped = readLivenessCalibration().threshold;
const nuaa = await score(readLivenessSet(dir).filter((_, i) => i % step === 0));
const best = minAcerThreshold(nuaa);
const atShipped = padRates(nuaa, shipped);
const samplesDir = path.join(path.dirname(path.resolve(dir)), 'samples');
const samples = fs.existsSync(samplesDir) ? await score(readSamples(samplesDir)) : [];
await disposeFaceModels(models);

const sampleRates = samples.length ? padRates(samples, shipped) : undefined;
const result = {
  dataset: dir,
  images: nuaa.length,
  bonaFide: nuaa.filter((i) => i.bonaFide).length,
  attacks: nuaa.filter((i) => !i.bonaFide).length,
  faceDetectedShare: faceFound / Math.max(1, nuaa.length + samples.length),
  // The top-level rates are the shipped threshold's: the product runs at it, not at the data's best.
  threshold: shipped,
  apcer: atShipped.apcer,
  bpcer: atShipped.bpcer,
  acer: atShipped.acer,
  atShipped,
  bestOnData: { threshold: best.threshold, apcer: best.apcer, bpcer: best.bpcer, acer: best.acer },
  auc: auc(nuaa),
  atHalf: padRates(nuaa, 0.5),
  msPerImage: totalMs / Math.max(1, nuaa.length + samples.length),
  samples: samples.map((s) => ({
    file: path.basename(s.file),
    kind: s.group,
    bonaFide: s.bonaFide,
    score: Math.round(s.score * 1000) / 1000,
    accepted: s.score >= shipped,
  })),
  samplesRates: sampleRates ?? null,
};
if (write && step === 1) {
  const calibration: LivenessCalibration = {
    model:
      'fr_liveness (BGR, 0-255, class 0 = live): box x2.7 crop; tight crops: border-padded (30%) and bare views averaged in logit space',
    source: `${path.basename(path.resolve(dir))}: ${result.bonaFide} bona fide, ${result.attacks} attacks; threshold = lowest ACER`,
    threshold: best.threshold,
    figures: { apcer: best.apcer, bpcer: best.bpcer, acer: best.acer, auc: result.auc },
  };
  fs.writeFileSync(LIVENESS_CALIBRATION_FILE, `${JSON.stringify(calibration, null, 2)}\n`);
  log(`threshold written to ${LIVENESS_CALIBRATION_FILE}`);
}
if (json) console.log(JSON.stringify(result));
else {
  const pct = (v: number): string => `${(v * 100).toFixed(2)}%`;
  console.log(
    `${dir}: ${result.bonaFide} bona fide, ${result.attacks} attacks, face detected in ${pct(result.faceDetectedShare)}`,
  );
  console.log(`AUC ${result.auc.toFixed(4)}`);
  console.log(
    `shipped threshold ${shipped}: APCER ${pct(atShipped.apcer)}  BPCER ${pct(atShipped.bpcer)}  ACER ${pct(atShipped.acer)}`,
  );
  console.log(
    `(best on this data, ${best.threshold}: APCER ${pct(best.apcer)}  BPCER ${pct(best.bpcer)}  ACER ${pct(best.acer)})`,
  );
  console.log(
    `(at 0.5: APCER ${pct(result.atHalf.apcer)} BPCER ${pct(result.atHalf.bpcer)} ACER ${pct(result.atHalf.acer)})`,
  );
  console.log(`${result.msPerImage.toFixed(1)} ms per image`);
  if (sampleRates) {
    console.log(
      `samples/ at the shipped threshold: APCER ${pct(sampleRates.apcer)} BPCER ${pct(sampleRates.bpcer)}`,
    );
    for (const s of result.samples)
      console.log(
        `  ${s.file.padEnd(22)} ${s.kind.padEnd(14)} score ${s.score.toFixed(3)} ${s.accepted ? 'accepted' : 'rejected'}`,
      );
  }
}
