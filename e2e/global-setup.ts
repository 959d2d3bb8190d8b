import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { markSvg } from '../core/document/render/marks.js';
import { renderIdCard } from '../core/document/render/render-card.js';
import { encodeGrayBmp, encodeGrayPng, syntheticFingerprint } from '../core/fingerprint/synthetic/index.js';
import { ARTIFACTS, FAKE_CAMERA_FILE, FIXTURES, ROOT, fixture } from './support/paths.js';
import { stillToY4m } from './support/y4m.js';

/** A wider crop of the photo the rendered ID card's portrait (person 0) comes from: the same person. */
async function selfieOfCardHolder(): Promise<Buffer> {
  const photo = path.join(ROOT, 'node_modules', '@vladmandic', 'face-api', 'demo', 'sample1.jpg');
  return sharp(photo)
    .extract({ left: 1140, top: 0, width: 780, height: 700 })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Generate every input the tests upload: synthetic prints, real photos, rendered cards, the fake camera clip. */
export default async function globalSetup(): Promise<void> {
  fs.mkdirSync(FIXTURES, { recursive: true });
  fs.writeFileSync(fixture('finger-a-1.png'), encodeGrayPng(syntheticFingerprint(101, 0), 500));
  fs.writeFileSync(fixture('finger-a-2.png'), encodeGrayPng(syntheticFingerprint(101, 1), 500));
  fs.writeFileSync(fixture('finger-b-1.png'), encodeGrayPng(syntheticFingerprint(202, 0), 500));
  // Formats scanners write that browsers cannot draw (TIFF) or draw only in part (BMP).
  const tiff = await sharp(encodeGrayPng(syntheticFingerprint(101, 2), 500))
    .tiff()
    .toBuffer();
  fs.writeFileSync(fixture('finger-a-3.tif'), tiff);
  fs.writeFileSync(fixture('finger-a-3.bmp'), encodeGrayBmp(syntheticFingerprint(101, 2), 500));
  const selfie = await selfieOfCardHolder();
  fs.writeFileSync(fixture('selfie.jpg'), selfie);
  fs.copyFileSync(
    path.join(ROOT, 'node_modules', '@vladmandic', 'face-api', 'demo', 'sample2.jpg'),
    fixture('other-person.jpg'),
  );
  fs.writeFileSync(fixture('id-card.jpg'), await renderIdCard({ person: 0 }));
  fs.writeFileSync(
    fixture('id-card-plain.jpg'),
    await renderIdCard({ person: 0, mrz: false, ghost: false, mark: 'none' }),
  );
  fs.writeFileSync(
    fixture('mark-arms.png'),
    await sharp(Buffer.from(markSvg('arms', 3)))
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer(),
  );
  fs.writeFileSync(FAKE_CAMERA_FILE, await stillToY4m(selfie, 640, 480));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}
