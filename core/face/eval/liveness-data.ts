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

/** The two labelled layouts: NUAA's ClientFace/ + ImposterFace/, or real/ + fake/. */
const LAYOUTS = [
  { bonaFide: 'ClientFace', attack: 'ImposterFace' },
  { bonaFide: 'real', attack: 'fake' },
] as const;

/**
 * Labelled liveness images of a folder in either layout: `ClientFace/` + `ImposterFace/` (NUAA) or `real/` +
 * `fake/`. Images sit in the label folder or one level below it (a subject or attack-kind folder, used as group).
 */
export function readLivenessSet(dir: string): LivenessItem[] {
  const layout = LAYOUTS.find(
    (l) => fs.existsSync(path.join(dir, l.bonaFide)) && fs.existsSync(path.join(dir, l.attack)),
  );
  if (!layout)
    throw new Error(`${dir} has neither ClientFace/ + ImposterFace/ (NUAA) nor real/ + fake/ folders.`);
  return [
    ...readLabelled(path.join(dir, layout.bonaFide), true),
    ...readLabelled(path.join(dir, layout.attack), false),
  ];
}

function readLabelled(root: string, bonaFide: boolean): LivenessItem[] {
  const items: LivenessItem[] = [];
  for (const name of fs.readdirSync(root).sort()) {
    const entry = path.join(root, name);
    if (fs.statSync(entry).isDirectory()) {
      for (const f of fs.readdirSync(entry).sort())
        if (IMAGE.test(f)) items.push({ file: path.join(entry, f), bonaFide, group: name });
    } else if (IMAGE.test(name)) {
      items.push({ file: entry, bonaFide, group: path.basename(root) });
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
