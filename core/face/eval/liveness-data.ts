import fs from 'node:fs';
import path from 'node:path';

/** One labelled liveness image. */
export interface LivenessItem {
  file: string;
  bonaFide: boolean;
  /** Subject folder (NUAA) or attack kind (samples). */
  group: string;
}

const IMAGE = /\.(jpe?g|png|bmp|webp)$/i;

/** NUAA layout: ClientFace/<subject>/*.jpg bona fide, ImposterFace/<subject>/*.jpg printed-photo attacks. */
export function readNuaa(dir: string): LivenessItem[] {
  const items: LivenessItem[] = [];
  for (const [sub, bonaFide] of [
    ['ClientFace', true],
    ['ImposterFace', false],
  ] as const) {
    const root = path.join(dir, sub);
    if (!fs.existsSync(root))
      throw new Error(`${root} is missing: expected the NUAA layout (ClientFace/, ImposterFace/).`);
    for (const subject of fs.readdirSync(root).sort()) {
      const folder = path.join(root, subject);
      if (!fs.statSync(folder).isDirectory()) continue;
      for (const f of fs.readdirSync(folder).sort())
        if (IMAGE.test(f)) items.push({ file: path.join(folder, f), bonaFide, group: subject });
    }
  }
  return items;
}

/** Labels of the samples/ folder, as its README states them (unlabelled files are left out). */
const SAMPLE_LABELS: Record<string, [boolean, string]> = {
  'image_T1.jpg': [true, 'bona fide'],
  'image_F1.jpg': [false, 'print'],
  'image_F2.jpg': [false, 'screen replay'],
  'kbyai_live_1.jpg': [false, 'mask'],
  'kbyai_live_3.jpg': [false, 'print'],
  'recognito_att_3.jpg': [false, 'held print'],
  'recognito_att_4.jpg': [false, 'replay'],
  'recognito_att_5.jpg': [true, 'bona fide'],
  'recognito_att_6.jpg': [true, 'bona fide'],
  'recognito_att_7.jpg': [true, 'bona fide'],
};

/** The labelled files of a samples/ folder that exist. */
export function readSamples(dir: string): LivenessItem[] {
  return Object.entries(SAMPLE_LABELS)
    .filter(([f]) => fs.existsSync(path.join(dir, f)))
    .map(([f, [bonaFide, group]]) => ({ file: path.join(dir, f), bonaFide, group }));
}
