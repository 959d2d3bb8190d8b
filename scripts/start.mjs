// `npm start`: the Electron console (dist/main.mjs) when its binary can be had, else (in one line) the headless server
// (dist/server.mjs). Either runs compiled JS, built first when missing or out of date.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureBuilt, runBuilt } from './build.mjs';

function electronBinary() {
  const pkg = path.join(ROOT, 'node_modules', 'electron');
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

const electron = electronBinary();
ensureBuilt();
if (electron.binary) {
  // The app folder: Electron runs package.json's "main" (dist/main.mjs) and takes the app's name and version from it.
  const child = spawn(electron.binary, [ROOT, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stdout.write(
    `Electron is not available (${electron.why}): starting the headless server; open the console in a browser.\n`,
  );
  await runBuilt('server.mjs');
}
