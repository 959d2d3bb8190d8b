/**
 * The one resolver of every file the product reads besides its code, so the same code runs from source (tsx,
 * vitest), from the bundle in `dist/`, and from an Electron asar whose native parts are unpacked beside it:
 *
 * - app files (`app-files.json`): from source at their place in the checkout; from a bundle in its `assets/`
 *   (`npm run build` copies them there);
 * - the console's build: `dist/renderer` of the checkout, or the bundle's `renderer/`;
 * - files of npm packages (models, tesseract data): found through node_modules from here, and taken from
 *   `app.asar.unpacked` when packaging unpacked them (native code cannot read inside an asar).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import APP_FILES from './app-files.json' with { type: 'json' };

/** A file the product reads that lives in this repository (not in a package). */
export type AppFileName = keyof typeof APP_FILES;

/** The file a build writes last at the top of its output folder: it marks the folder a bundle runs from. */
export const BUNDLE_STAMP = 'build-info.json';

const here = fileURLToPath(import.meta.url);
/** True when running TypeScript from the checkout; false in a bundle. */
export const fromSource = here.endsWith('.ts');

/** The bundle's top folder: this code sits in it or in one of its subfolders (chunks). */
function bundleRoot(): string {
  for (let dir = path.dirname(here); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, BUNDLE_STAMP))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(here);
  }
}

/** The checkout (from source) or the bundle's top folder (dist/, inside app.asar when packaged). */
export const appBase = fromSource ? path.resolve(path.dirname(here), '..', '..') : bundleRoot();

/** Where the bundle keeps the app files: `assets/<path in the checkout>`. */
export const BUNDLE_ASSETS = 'assets';

/** Absolute path of an app file. */
export function appFile(name: AppFileName): string {
  const relative = APP_FILES[name];
  return fromSource ? path.join(appBase, relative) : path.join(appBase, BUNDLE_ASSETS, relative);
}

/** Every app file with its path in the checkout (what a build copies). */
export function appFiles(): Record<AppFileName, string> {
  return { ...APP_FILES };
}

/** The built console (Vite's output) the server serves at `/`. */
export function rendererDir(): string {
  return fromSource ? path.join(appBase, 'dist', 'renderer') : path.join(appBase, 'renderer');
}

let version: string | undefined;

/** The product version (package.json). */
export function appVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(appFile('packageJson'), 'utf8')) as { version: string }).version;
  return version;
}

/**
 * The real file behind a path inside an Electron asar when packaging unpacked it (`app.asar.unpacked`), else the path
 * itself: native code (onnxruntime, SQLite extensions) reads the disk, not the archive.
 */
export function unpacked(file: string): string {
  const packed = `${path.sep}app.asar${path.sep}`;
  const at = file.indexOf(packed);
  if (at < 0) return file;
  const candidate = `${file.slice(0, at)}${path.sep}app.asar.unpacked${path.sep}${file.slice(at + packed.length)}`;
  return fs.existsSync(candidate) ? candidate : file;
}

/**
 * Folder of an installed npm package, looked up through node_modules as Node would from the file `from` (default:
 * this code), whether or not the package's `exports` map lists package.json. Inside an asar this is the packed
 * folder (its package.json and JavaScript stay there); `packageFile` gives a file's unpacked copy.
 */
export function packageDir(name: string, from = here): string {
  const require = createRequire(from);
  const found = (require.resolve.paths(name) ?? [])
    .map((dir) => path.join(dir, name))
    .find((dir) => fs.existsSync(path.join(dir, 'package.json')));
  if (!found) throw new Error(`The npm package ${name} is not installed; run npm ci.`);
  return found;
}

/** A file inside an installed npm package (its unpacked copy when packaged). */
export function packageFile(name: string, file: string, from = here): string {
  return unpacked(path.join(packageDir(name, from), file));
}
