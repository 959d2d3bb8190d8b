// `npm start`: the Electron console when its binary can be had, else (in one line) the headless server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function electronBinary() {
  const pkg = path.join(root, 'node_modules', 'electron');
  if (!fs.existsSync(path.join(pkg, 'package.json'))) return { why: 'the electron package is not installed' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { why: 'there is no display' };
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    // The electron package downloads its binary on first use; offline machines cannot.
    const got = spawnSync(process.execPath, [path.join(pkg, 'install.js')], {
      cwd: pkg,
      timeout: 120_000,
      stdio: 'ignore',
    });
    if (got.status !== 0 || !fs.existsSync(pathFile))
      return { why: 'its binary could not be downloaded (offline?)' };
  }
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? { binary } : { why: 'its binary is missing' };
}

function ensureRenderer() {
  if (fs.existsSync(path.join(root, 'renderer', 'dist', 'index.html'))) return;
  process.stdout.write('Building the console (first run)...\n');
  const built = spawnSync('npm', ['run', 'build:renderer', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.stdout.write('The console could not be built; the API still runs.\n');
}

async function bundleElectron() {
  const { build } = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  };
  await build({
    ...common,
    entryPoints: [path.join(root, 'electron', 'main.ts')],
    format: 'esm',
    outfile: path.join(root, 'electron', 'dist', 'main.mjs'),
    external: ['electron'],
  });
  await build({
    ...common,
    entryPoints: [path.join(root, 'electron', 'preload.ts')],
    format: 'cjs',
    outfile: path.join(root, 'electron', 'dist', 'preload.cjs'),
    external: ['electron'],
  });
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

const electron = electronBinary();
ensureRenderer();
if (electron.binary) {
  await bundleElectron();
  run(electron.binary, [path.join(root, 'electron', 'dist', 'main.mjs'), ...args]);
} else {
  process.stdout.write(
    `Electron is not available (${electron.why}): starting the headless server; open the console in a browser.\n`,
  );
  run(process.execPath, [
    path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    path.join(root, 'core', 'cli', 'serve.ts'),
    ...args,
  ]);
}
