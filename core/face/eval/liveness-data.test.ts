import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLivenessSet } from './liveness-data.js';

const made: string[] = [];
function tree(files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-liveness-'));
  made.push(root);
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), '');
  }
  return root;
}

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('readLivenessSet', () => {
  it('reads the NUAA layout with subject folders', () => {
    const dir = tree(['ClientFace/0001/a.jpg', 'ImposterFace/0001/b.jpg', 'ImposterFace/0002/c.png']);
    const items = readLivenessSet(dir);
    expect(items.map((i) => [path.basename(i.file), i.bonaFide, i.group])).toEqual([
      ['a.jpg', true, '0001'],
      ['b.jpg', false, '0001'],
      ['c.png', false, '0002'],
    ]);
  });

  it('reads real/ + fake/ with images flat or in kind folders, skipping non-images', () => {
    const dir = tree(['real/x.jpg', 'real/notes.txt', 'fake/print/y.jpg', 'fake/z.webp']);
    const items = readLivenessSet(dir);
    expect(items.map((i) => [path.basename(i.file), i.bonaFide, i.group])).toEqual([
      ['x.jpg', true, 'real'],
      ['y.jpg', false, 'print'],
      ['z.webp', false, 'fake'],
    ]);
  });

  it('names both layouts when a folder has neither', () => {
    const dir = tree(['photos/a.jpg']);
    expect(() => readLivenessSet(dir)).toThrow(/ClientFace.*real\/ \+ fake\//);
  });
});
