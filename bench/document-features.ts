import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createFaceEngine } from '../core/face/index.js';
import {
  createDocumentEngine,
  DocumentWorkers,
  type FeatureName,
  type FeatureResult,
} from '../core/document/index.js';
import { distortCard, type DistortOptions } from '../core/document/render/distort.js';
import { markSvg } from '../core/document/render/marks.js';
import { renderIdCard, type RenderCardOptions } from '../core/document/render/render-card.js';
import { decodeImage } from '../core/imaging/decode.js';
import { openStore } from '../core/storage/open-store.js';

/**
 * npm run bench:document-features [-- --cards N]: each security-feature detector on rendered cards (genuine and
 * distorted ID cards, driver's licences), one detector at a time so timings do not contend: p50/p90 of the
 * detector's own `ms`, CPU ms of the whole process (all threads), and how many cards passed (score >= 0.5).
 */
const args = process.argv.slice(2);
const at = args.indexOf('--cards');
const count = at >= 0 ? Number(args[at + 1]) : 8;

const variants: [RenderCardOptions, DistortOptions][] = [
  [{}, {}],
  [{ person: 1 }, { rotate: 4 }],
  [{ person: 2 }, { scale: 0.8, blur: 0.8 }],
  [{ variant: 'dl' }, {}],
  [{}, { perspective: 0.1, brightness: 0.7 }],
  [{ person: 1, variant: 'dl' }, { rotate: -3 }],
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-doc-'));
const store = await openStore({ dataDir });
let face: Awaited<ReturnType<typeof createFaceEngine>> | undefined;
try {
  face = await createFaceEngine();
} catch (error) {
  console.log(
    `ghost_portrait skipped: face engine unavailable (${error instanceof Error ? error.message : String(error)})`,
  );
}
// As the server runs it: MRZ reading and the feature tasks on the document workers.
const workers = new DocumentWorkers({ preloadMrz: true });
const engine = await createDocumentEngine({
  profiles: store.documentProfiles,
  marks: store.referenceMarks,
  readMrz: workers.readMrz,
  workers,
  ...(face ? { face } : {}),
});
await engine.warmUp();
await engine.addReferenceMark(
  'arms',
  await sharp(Buffer.from(markSvg('arms', 1.5)))
    .png()
    .toBuffer(),
);

const cards = [];
for (let i = 0; i < count; i++) {
  const [card, distort] = variants[i % variants.length]!;
  cards.push({
    card,
    image: await decodeImage(await distortCard(await renderIdCard(card), distort), { field: 'id_card' }),
  });
}

const features: FeatureName[] = ['mrz', 'ghost_portrait', 'reference_mark', 'pdf417'];
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))] ?? NaN;
};
console.log(
  `${count} rendered cards (1011x638 before distortion), load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
);
for (const feature of features) {
  if (feature === 'ghost_portrait' && !face) continue;
  const times: number[] = [];
  let passed = 0;
  let applicable = 0;
  const cpu = process.cpuUsage();
  for (const { card, image } of cards) {
    const profile = {
      name: 'bench',
      description: '',
      features: [{ feature, min_score: 0.5 }],
      reference_marks: [],
    };
    const [result] = (await engine.runFeatures(image, profile)) as [FeatureResult];
    times.push(result.ms);
    const expected =
      feature === 'pdf417' ? card.variant === 'dl' : feature === 'mrz' ? card.variant !== 'dl' : true;
    if (expected) {
      applicable++;
      if (result.score >= 0.5) passed++;
    }
  }
  const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000 / cards.length;
  console.log(
    `${feature.padEnd(15)} p50 ${percentile(times, 0.5).toFixed(0).padStart(5)} ms  p90 ${percentile(times, 0.9).toFixed(0).padStart(5)} ms` +
      `  process CPU ${cpuMs.toFixed(0).padStart(4)} ms/card  passed ${passed}/${applicable}`,
  );
}
await engine.dispose();
await workers.close();
await face?.dispose();
await store.close();
fs.rmSync(dataDir, { recursive: true, force: true });
