import fs from 'node:fs';
import { FINGERPRINT_MODEL_VERSION } from '../fingerprint/model-version.js';
import { extractFeatures } from '../fingerprint/extract/index.js';
import { decodeIsoRecord, encodeIsoRecord, isoRecordToFeatures } from '../fingerprint/iso/index.js';
import { encodeGrayBmp, encodeGrayPng, syntheticFingerprint } from '../fingerprint/synthetic/index.js';
import { decodeImage, rgbToGray } from '../imaging/decode.js';
import { maskMobile } from '../mobile.js';
import { openStore } from '../storage/open-store.js';
import { parseArgs, STORE_USAGE, storeOf, type ParsedArgs } from './args.js';

const USAGE = `Usage: npm run fp -- <command> [options]
  reenroll-report [--json]                       enrollments made by another fingerprint model version (masked numbers)
  synth --seed N [--impression I] --out FILE  write a synthetic fingerprint (.png or .bmp), deterministic per seed
  iso-export --image FILE --out FILE.iso      extract minutiae and write an ISO/IEC 19794-2:2005 record
  iso-info FILE.iso                           print the header and minutiae count of an ISO record
${STORE_USAGE}`;

function required(args: ParsedArgs, flag: string): string {
  const value = args.flags[flag];
  if (typeof value !== 'string' || value === '') throw new Error(`${flag} needs a value`);
  return value;
}

async function reenrollReport(args: ParsedArgs): Promise<void> {
  const store = await openStore(storeOf(args));
  try {
    const rows = await store.enrollments.listOutdated(FINGERPRINT_MODEL_VERSION);
    const report = rows.map((r) => ({
      mobile: maskMobile(r.mobile),
      model_version: r.modelVersion,
      enrolled_at: r.createdAt,
      updated_at: r.updatedAt,
    }));
    if (args.flags.json === true) {
      process.stdout.write(
        `${JSON.stringify({ current_model_version: FINGERPRINT_MODEL_VERSION, count: report.length, enrollments: report }, null, 2)}\n`,
      );
      return;
    }
    process.stdout.write(
      `Current fingerprint model: ${FINGERPRINT_MODEL_VERSION}. ${report.length} enrollment(s) must be re-enrolled.\n`,
    );
    for (const r of report)
      process.stdout.write(
        `${r.mobile}\t${r.model_version}\tenrolled ${r.enrolled_at}\tupdated ${r.updated_at}\n`,
      );
  } finally {
    await store.close();
  }
}

function synth(args: ParsedArgs): void {
  const seed = Number(required(args, 'seed'));
  const impression = Number(args.flags.impression ?? 0);
  if (!Number.isInteger(seed) || !Number.isInteger(impression))
    throw new Error('--seed and --impression need integers (usage)');
  const out = required(args, 'out');
  const image = syntheticFingerprint(seed, impression);
  fs.writeFileSync(
    out,
    out.toLowerCase().endsWith('.bmp') ? encodeGrayBmp(image) : encodeGrayPng(image, 500),
  );
  process.stdout.write(
    `Wrote ${out} (finger ${seed}, impression ${impression}, ${image.width}x${image.height})\n`,
  );
}

async function isoExport(args: ParsedArgs): Promise<void> {
  const image = await decodeImage(fs.readFileSync(required(args, 'image')), { field: 'image' });
  const features = extractFeatures(
    { width: image.width, height: image.height, data: rgbToGray(image.rgb, image.width, image.height) },
    image.dpi ? { dpi: image.dpi } : {},
  );
  const out = required(args, 'out');
  fs.writeFileSync(out, encodeIsoRecord(features));
  process.stdout.write(
    `Wrote ${out}: ${Math.min(255, features.minutiae.length)} minutiae, quality ${Math.round(features.quality)}\n`,
  );
}

function isoInfo(args: ParsedArgs): void {
  const file = args.positional[1];
  if (!file) throw new Error('iso-info needs a file (usage)');
  const record = decodeIsoRecord(fs.readFileSync(file));
  const features = isoRecordToFeatures(record);
  process.stdout.write(
    `${record.width}x${record.height} px, ${record.resolutionX} px/cm (${features.dpi} dpi), ${record.views.length} view(s), ${features.minutiae.length} minutiae in the first\n`,
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const command = args.positional[0];
  switch (command) {
    case 'reenroll-report':
      await reenrollReport(args);
      return;
    case 'synth':
      synth(args);
      return;
    case 'iso-export':
      await isoExport(args);
      return;
    case 'iso-info':
      isoInfo(args);
      return;
    default:
      throw new Error(`unknown command ${command ?? '(none)'}`);
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(/unknown command|needs|usage/i.test(message) ? 2 : 1);
});
