import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { MRZ_ALPHABET } from '../mrz/index.js';
import { loadLineRecognizer } from '../ocr/paddle-recognizer.js';
import { CharAccuracy } from './edit-distance.js';
import { hasTesseractCli, tesseractCli } from './tesseract-cli.js';

/** Character accuracy of one reader over a folder of line crops. */
export interface LineScore {
  lines: number;
  /** 1 − Σ edit distance / Σ ground-truth length. */
  charAccuracy: number;
  msPerLine: number;
}

/** Ours and the native tesseract peer on the same crops (the peer null with a note when its CLI is absent). */
export interface LineEvaluation {
  dir: string;
  ours: LineScore;
  peer: LineScore | null;
  note?: string;
}

/** The crops of a folder that have a `NAME.gt.txt` beside them, every `step`-th one. */
export function lineSamples(dir: string, step = 1): { image: string; truth: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.gt.txt'))
    .sort()
    .filter((_, i) => i % step === 0)
    .flatMap((gt) => {
      const stem = gt.slice(0, -'.gt.txt'.length);
      const image = ['.tif', '.png', '.jpg']
        .map((ext) => path.join(dir, stem + ext))
        .find((f) => fs.existsSync(f));
      return image ? [{ image, truth: fs.readFileSync(path.join(dir, gt), 'utf8').trim() }] : [];
    });
}

/** Read every crop with our recogniser (PP-OCRv4, MRZ alphabet) and with the native tesseract CLI (eng, psm 7, same whitelist). */
export async function evaluateLines(dir: string, step = 1, withPeer = true): Promise<LineEvaluation> {
  const samples = lineSamples(dir, step);
  const recognizer = await loadLineRecognizer();
  const ours = new CharAccuracy();
  let oursMs = 0;
  try {
    for (const sample of samples) {
      const { data, info } = await sharp(sample.image)
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const started = performance.now();
      const line = await recognizer.recognize({ width: info.width, height: info.height, data }, MRZ_ALPHABET);
      oursMs += performance.now() - started;
      ours.add(line.text, sample.truth);
    }
  } finally {
    await recognizer.dispose();
  }
  const result: LineEvaluation = {
    dir,
    ours: {
      lines: samples.length,
      charAccuracy: ours.value(),
      msPerLine: oursMs / Math.max(1, samples.length),
    },
    peer: null,
  };
  if (!withPeer) return { ...result, note: 'peer skipped (--no-peer)' };
  if (!(await hasTesseractCli()))
    return {
      ...result,
      note: 'peer skipped: the tesseract CLI is not installed (apt package tesseract-ocr)',
    };
  const peer = new CharAccuracy();
  let peerMs = 0;
  for (const sample of samples) {
    const started = performance.now();
    const text = await tesseractCli(sample.image, 7, MRZ_ALPHABET);
    peerMs += performance.now() - started;
    peer.add(text.replace(/\s+/g, ''), sample.truth);
  }
  result.peer = {
    lines: samples.length,
    charAccuracy: peer.value(),
    msPerLine: peerMs / Math.max(1, samples.length),
  };
  return result;
}
