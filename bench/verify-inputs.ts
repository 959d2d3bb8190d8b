/**
 * Inputs of `npm run bench:verify`: a real print pair, a selfie and a passport with an MRZ. From ../shared when it is
 * there (an FVC print pair, passport_uk.jpg and a selfie cut from its own portrait), otherwise generated or
 * npm-shipped (a synthetic print pair, a rendered ID card with a TD1 MRZ and a shipped photo of its holder).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { isNoMrzDocument } from '../core/document/eval/eval-documents.js';
import { renderIdCard } from '../core/document/render/render-card.js';
import { encodeGrayPng, syntheticFingerprint } from '../core/fingerprint/synthetic/index.js';
import { printedPage, samplePhoto, texturedJpeg } from '../core/testing/images.js';

/** The shared evaluation data, when this machine has it. */
export const SHARED = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data');
const DOCUMENTS = path.join(SHARED, 'documents', 'passports-ids');
const FVC = path.join(SHARED, 'fingerprints', 'FVC2002_DB1_B');

/** One named image file. */
export interface NamedImage {
  name: string;
  data: Buffer;
}

/** What one /v2/verify request sends, and the print enrolled beforehand. */
export interface VerifyInputs {
  source: string;
  enrolled: NamedImage;
  print: NamedImage;
  selfie: NamedImage;
  card: NamedImage;
}

/** The face box of the quality route's answer. */
type FaceOf = (image: Buffer) => Promise<{ x: number; y: number; width: number; height: number } | null>;

/** A selfie-sized picture of the card's holder: the portrait found on the card, with a margin, enlarged. */
async function selfieFromPortrait(card: Buffer, faceOf: FaceOf): Promise<Buffer> {
  const box = await faceOf(card);
  if (!box) throw new Error('No face found on the benchmark passport: pass another with --card.');
  const meta = await sharp(card).metadata();
  const side = Math.round(Math.max(box.width, box.height) * 2.2);
  const left = Math.max(0, Math.round(box.x + box.width / 2 - side / 2));
  const top = Math.max(0, Math.round(box.y + box.height / 2 - side / 2));
  const width = Math.min(side, (meta.width ?? 0) - left);
  const height = Math.min(side, (meta.height ?? 0) - top);
  return sharp(card).extract({ left, top, width, height }).resize(480).jpeg({ quality: 92 }).toBuffer();
}

/** The /v2/verify inputs: ../shared when present (or `cardPath`), else generated and shipped images. */
export async function verifyInputs(faceOf: FaceOf, cardPath?: string): Promise<VerifyInputs> {
  const sharedCard = cardPath ?? path.join(DOCUMENTS, 'passport_uk.jpg');
  const realPrints = fs.existsSync(path.join(FVC, '101_1.tif'));
  const enrolled = realPrints
    ? { name: '101_1.tif', data: fs.readFileSync(path.join(FVC, '101_1.tif')) }
    : { name: 'synthetic-101-0.png', data: encodeGrayPng(syntheticFingerprint(101, 0), 500) };
  const print = realPrints
    ? { name: '101_2.tif', data: fs.readFileSync(path.join(FVC, '101_2.tif')) }
    : { name: 'synthetic-101-1.png', data: encodeGrayPng(syntheticFingerprint(101, 1), 500) };
  if (fs.existsSync(sharedCard)) {
    const data = fs.readFileSync(sharedCard);
    return {
      source: `${realPrints ? 'FVC2002 DB1 101_1/101_2' : 'synthetic print'}, ${path.basename(sharedCard)}, selfie cut from its portrait`,
      enrolled,
      print,
      selfie: { name: 'selfie.jpg', data: await selfieFromPortrait(data, faceOf) },
      card: { name: path.basename(sharedCard), data },
    };
  }
  // The rendered card's holder is the person at (1340, 40) in sample1.jpg; the selfie is a wider crop of them.
  const selfie = await sharp(samplePhoto(1))
    .extract({ left: 1290, top: 0, width: 520, height: 620 })
    .resize(480)
    .jpeg()
    .toBuffer();
  return {
    source: `${realPrints ? 'FVC2002 DB1 101_1/101_2' : 'synthetic print'}, rendered TD1 card, shipped photo`,
    enrolled,
    print,
    selfie: { name: 'selfie.jpg', data: selfie },
    card: { name: 'rendered-card.jpg', data: await renderIdCard({ person: 0 }) },
  };
}

/** The documents with an MRZ of ../shared's passports-ids (empty without it), or a rendered card. */
export function mrzDocuments(): NamedImage[] {
  if (!fs.existsSync(DOCUMENTS)) return [];
  return fs
    .readdirSync(DOCUMENTS)
    .filter((name) => /\.(jpe?g|png)$/i.test(name) && !isNoMrzDocument(name))
    .sort()
    .map((name) => ({ name, data: fs.readFileSync(path.join(DOCUMENTS, name)) }));
}

/**
 * Images without any security feature: ../shared's no-MRZ documents, a plain rendered card, a photo, texture, pages
 * of print and a fingerprint.
 */
export async function noFeatureImages(): Promise<NamedImage[]> {
  const shared = fs.existsSync(DOCUMENTS)
    ? fs
        .readdirSync(DOCUMENTS)
        .filter((name) => /\.(jpe?g|png)$/i.test(name) && isNoMrzDocument(name))
        .sort()
        .map((name) => ({ name, data: fs.readFileSync(path.join(DOCUMENTS, name)) }))
    : [];
  return [
    ...shared,
    {
      name: 'rendered card, no feature',
      data: await renderIdCard({ person: 0, mrz: false, ghost: false, mark: 'none' }),
    },
    { name: 'shipped photo sample2.jpg', data: samplePhoto(2) },
    { name: 'texture 1600x1000', data: await texturedJpeg(1600, 1000) },
    // The reader's dearest kinds of image without an MRZ: rows of print, also scanned large, and a print's ridges.
    { name: 'page of print 1200 px', data: await printedPage(1200) },
    { name: 'typed page, monospace capitals 1700 px', data: await printedPage(1700, true) },
    { name: 'page of print, A4 at 300 dpi (2480 px)', data: await printedPage(2480) },
    { name: 'typed page, A4 at 300 dpi (2480 px)', data: await printedPage(2480, true) },
    { name: 'synthetic fingerprint', data: encodeGrayPng(syntheticFingerprint(7, 0), 500) },
  ];
}
