import { readManifest, type ModelManifest } from '../../models/manifest.js';
import type { FaceEngine } from '../contracts.js';

/**
 * Versions of the models a face engine reports in `health().models`, from models/manifest.json:
 * `<package>@<version> sha256:<first 12 hex>` (the hash pins the exact file even if a package is republished).
 */
export function faceModelVersions(
  face: FaceEngine,
  manifest: ModelManifest = readManifest(),
): Record<string, string> {
  const names = face.health().models;
  if (!Array.isArray(names)) return {};
  const versions: Record<string, string> = {};
  for (const name of names) {
    if (typeof name !== 'string') continue;
    const entry = manifest.models.find((model) => model.name === name);
    if (entry)
      versions[name] = `${entry.package}@${entry.packageVersion} sha256:${entry.sha256.slice(0, 12)}`;
  }
  return versions;
}
