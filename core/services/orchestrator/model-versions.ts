import { readManifest, type ModelManifest } from '../../models/manifest.js';

/**
 * Versions of the named models (the engines' `models`), from models/manifest.json:
 * `<package>@<version> sha256:<first 12 hex>` (the hash pins the exact file even if a package is republished).
 */
export function modelVersions(
  names: readonly string[],
  manifest: ModelManifest = readManifest(),
): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of names) {
    const entry = manifest.models.find((model) => model.name === name);
    if (entry)
      versions[name] = `${entry.package}@${entry.packageVersion} sha256:${entry.sha256.slice(0, 12)}`;
  }
  return versions;
}
