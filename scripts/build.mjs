// `npm run build`: everything the product runs, compiled into dist/ (docs/build.md). Also imported by the launchers
// (start.mjs, serve.mjs, cli.mjs) to build what is missing or out of date before they run it.
//
//   node scripts/build.mjs [--only bundle|renderer] [--out DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build` writes. */
export const DIST = path.join(ROOT, 'dist');

/** The bundle's entry points: output name (dist/<name>.mjs) to source. */
const ENTRIES = {
  server: 'scripts/entries/server.ts',
  cli: 'scripts/entries/cli.ts',
  worker: 'core/workers/entry.ts',
  main: 'electron/main.ts',
};
/** Outputs that may import Electron (the desktop shell); nothing else runs inside it only. */
const ELECTRON_OUTPUTS = new Set(['main.mjs', 'preload.cjs']);
/**
 * Written last by a bundle build: its presence and time say the bundle is complete and how old it is; the asset
 * resolver finds the bundle's top folder by it (BUNDLE_STAMP of core/assets/assets.ts).
 */
const STAMP = 'build-info.json';

/** Sources of each part, for the out-of-date check (tests excluded: they are not built). */
const INPUTS = {
  bundle: [
    'core',
    'electron',
    'scripts/entries',
    'scripts/build.mjs',
    'models/manifest.json',
    'package.json',
  ],
  renderer: ['renderer', 'package.json'],
};

function newestInput(part) {
  let newest = { time: 0, file: '' };
  const visit = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file)) {
        if (name === 'node_modules' || name === 'dist') continue;
        visit(path.join(file, name));
      }
    } else if (!/\.test\.tsx?$/.test(file) && stat.mtimeMs > newest.time) {
      newest = { time: stat.mtimeMs, file };
    }
  };
  for (const input of INPUTS[part]) visit(path.join(ROOT, input));
  return newest;
}

function mtime(file) {
  return fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/**
 * Which parts of `out` are missing or older than their sources: `[{ part, missing, changed? }]` (`changed`: the newest
 * source, relative to the checkout), empty when the build is current. A build without sources beside it (a copied
 * dist/) is current as long as it is complete.
 */
export function staleParts(out = DIST) {
  const stale = [];
  const check = (part, builtFile) => {
    const built = mtime(builtFile);
    if (built === undefined) {
      stale.push({ part, missing: true });
      return;
    }
    const newest = newestInput(part);
    if (newest.time > built) stale.push({ part, missing: false, changed: path.relative(ROOT, newest.file) });
  };
  check('bundle', path.join(out, STAMP));
  check('renderer', path.join(out, 'renderer', 'index.html'));
  return stale;
}

/** Package names the bundle may import at run time: the dependencies electron-builder ships. */
function runtimePackages() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return new Set(Object.keys(pkg.dependencies ?? {}));
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Refuse a bundle that imports a package the packaged app would not have (a devDependency, an undeclared one). */
export function checkExternals(metafile, out) {
  const allowed = runtimePackages();
  const problems = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const name = path.relative(out, path.resolve(ROOT, file));
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      if (specifier.startsWith('.') || specifier.startsWith('/')) continue;
      const pkg = packageName(specifier);
      if (allowed.has(pkg)) continue;
      if (pkg === 'electron' && ELECTRON_OUTPUTS.has(name)) continue;
      problems.push(`${name} imports ${specifier}, which is not in package.json "dependencies"`);
    }
  }
  if (problems.length > 0)
    throw new Error(`The bundle would not run as shipped:\n  ${problems.join('\n  ')}`);
}

/** Copy the app files the resolver reads (core/assets/app-files.json) to <out>/assets/<path in the checkout>. */
function copyAppFiles(out) {
  const files = JSON.parse(fs.readFileSync(path.join(ROOT, 'core', 'assets', 'app-files.json'), 'utf8'));
  for (const relative of Object.values(files)) {
    const target = path.join(out, 'assets', relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(ROOT, relative), target);
  }
}

/**
 * JSON files of packages are bundled: Node's ESM loader refuses `import x from 'pkg/data.json'` without an import
 * attribute, which source run by tsx never needed.
 */
const bundlePackageJson = {
  name: 'bundle-package-json',
  setup(build) {
    build.onResolve({ filter: /\.json$/ }, (args) => {
      if (args.path.startsWith('.') || path.isAbsolute(args.path)) return undefined;
      return { path: createRequire(args.importer).resolve(args.path) };
    });
  },
};

/** Remove what a previous bundle build wrote (chunk names change with their content); the renderer stays. */
function cleanBundle(out) {
  if (!fs.existsSync(out)) return;
  for (const name of fs.readdirSync(out)) {
    if (/\.(mjs|cjs|map)$/.test(name) || [STAMP, 'assets', 'chunks'].includes(name))
      fs.rmSync(path.join(out, name), { recursive: true, force: true });
  }
}

/**
 * The server, worker, CLI and Electron bundles: entries at the top of `out`, code splitting keeps one copy of core
 * shared by all of them in `chunks/` (the asset resolver finds the top from any chunk by the build stamp).
 */
export async function buildBundle(out = DIST) {
  const esbuild = await import('esbuild');
  cleanBundle(out);
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    // node_modules stay outside the bundle: native addons must load from their packages (unpacked from the asar).
    packages: 'external',
    logLevel: 'warning',
    metafile: true,
    plugins: [bundlePackageJson],
  };
  const main = await esbuild.build({
    ...common,
    entryPoints: ENTRIES,
    outdir: out,
    format: 'esm',
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunks/[hash]',
    outExtension: { '.js': '.mjs' },
  });
  // A sandboxed preload must be one CommonJS file.
  const preload = await esbuild.build({
    ...common,
    entryPoints: ['electron/preload.ts'],
    outfile: path.join(out, 'preload.cjs'),
    format: 'cjs',
  });
  checkExternals(main.metafile, out);
  checkExternals(preload.metafile, out);
  copyAppFiles(out);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.writeFileSync(
    path.join(out, STAMP),
    `${JSON.stringify({ version: pkg.version, builtAt: new Date().toISOString(), node: process.version }, null, 2)}\n`,
  );
}

/** The console (Vite) into <out>/renderer. */
export async function buildRenderer(out = DIST) {
  const vite = await import('vite');
  await vite.build({
    configFile: path.join(ROOT, 'renderer', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: path.join(out, 'renderer'), emptyOutDir: true },
  });
}

const PART_NAMES = { bundle: 'the server', renderer: 'the console' };

/**
 * Build the parts of dist/ that are missing or out of date, saying so on stderr (stdout stays the program's). Runs
 * the build in a child process so no build tool stays loaded in the program. Exits when the server cannot be built;
 * a console that cannot be built leaves the API running with a page that says so.
 */
export function ensureBuilt({ parts = ['bundle', 'renderer'] } = {}) {
  for (const { part, missing, changed } of staleParts().filter((s) => parts.includes(s.part))) {
    process.stderr.write(
      missing
        ? `First run: building ${PART_NAMES[part]} into dist/...\n`
        : `${changed} changed since the last build: rebuilding ${PART_NAMES[part]} in dist/...\n`,
    );
    const built = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--only', part], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (built.status === 0) continue;
    if (part === 'renderer') {
      process.stderr.write('The console could not be built; the API still runs.\n');
      continue;
    }
    process.stderr.write(
      'The server could not be built. Install the dependencies with `npm ci` (the build needs its devDependencies).\n',
    );
    process.exit(1);
  }
}

/** Run a built entry of dist/ in this process (`node dist/<name>.mjs` with this process's arguments). */
export async function runBuilt(name) {
  await import(pathToFileURL(path.join(DIST, name)).href);
}

async function main(args) {
  const option = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const out = path.resolve(option('--out') ?? DIST);
  const only = option('--only');
  if (only !== undefined && !(only in PART_NAMES))
    throw new Error(`--only takes bundle or renderer, not ${only}`);
  const started = performance.now();
  if (only !== 'renderer') await buildBundle(out);
  if (only !== 'bundle') await buildRenderer(out);
  const what = only ? PART_NAMES[only] : 'the server and the console';
  process.stderr.write(
    `Built ${what} into ${path.relative(process.cwd(), out) || '.'} in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
