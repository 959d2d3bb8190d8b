import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { bindAddress, setWorkerEntry, startServer, type RunningServer } from '../core/index.js';
import { lockNavigation, restrictPermissions, secureWebPreferences, showWhenReady } from './security.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// The main process runs only as dist/main.mjs: the engines' worker threads start from the bundle beside it.
setWorkerEntry(new URL('./worker.mjs', import.meta.url));
let server: RunningServer | undefined;

/** Start core's server (env, else the bind address saved in the console, else loopback), then open the window. */
async function launch(): Promise<void> {
  const dataDir = process.env.IDV_DATA_DIR ?? path.join(app.getPath('userData'), 'data');
  const { host, port } = await bindAddress(dataDir, {
    host: process.env.IDV_HOST,
    port: process.env.IDV_PORT,
  });
  server = await startServer({ host, port, dataDir });
  const origin = new URL(server.url).origin;
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    show: false,
    title: 'IDV Console',
    webPreferences: { ...secureWebPreferences, preload: path.join(here, 'preload.cjs') },
  });
  lockNavigation(window.webContents, origin);
  restrictPermissions(window.webContents.session, origin);
  showWhenReady(window);
  ipcMain.handle('idv:open-data-folder', () => shell.openPath(dataDir));
  ipcMain.handle('idv:app-version', () => app.getVersion());
  await window.loadURL(server.url);
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
});

app.on('window-all-closed', () => {
  app.quit();
});

app.on('before-quit', (event) => {
  if (!server) return;
  event.preventDefault();
  const closing = server;
  server = undefined;
  void closing.close().finally(() => {
    app.quit();
  });
});

app.whenReady().then(launch, (error: unknown) => {
  process.stderr.write(`IDV Console failed to start: ${String(error)}\n`);
  app.exit(1);
});
