// What electron/main.ts asks of Electron, recorded as JSON lines on stdout, so the bundled main process (dist/main.mjs)
// runs under plain Node where Electron's binary cannot be had. "quit" on stdin (or SIGTERM) quits the app as Electron
// does: `before-quit` listeners may defer it; `app.quit()` called again, or `app.exit()`, ends the process.
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

function record(event, details = {}) {
  process.stdout.write(`${JSON.stringify({ standIn: event, ...details })}\n`);
}

class App extends EventEmitter {
  #ready = Promise.resolve();
  #quitting = false;
  whenReady() {
    return this.#ready;
  }
  getPath(name) {
    return path.join(process.env.IDV_STAND_IN_HOME ?? os.tmpdir(), name);
  }
  getVersion() {
    return '0.0.0-stand-in';
  }
  quit() {
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    if (!this.#quitting) this.emit('before-quit', event);
    this.#quitting = true;
    if (event.defaultPrevented) return;
    record('quit');
    process.exit(0);
  }
  exit(code = 0) {
    record('exit', { code });
    process.exit(code);
  }
}

export const app = new App();

class WebContents extends EventEmitter {
  session = {
    setPermissionRequestHandler: () => record('permission-request-handler'),
    setPermissionCheckHandler: () => record('permission-check-handler'),
  };
  setWindowOpenHandler() {
    record('window-open-handler');
  }
}

export class BrowserWindow extends EventEmitter {
  webContents = new WebContents();
  constructor(options) {
    super();
    record('window', { preload: options.webPreferences?.preload, webPreferences: options.webPreferences });
  }
  async loadURL(url) {
    record('load', { url });
    this.emit('ready-to-show');
  }
  show() {
    record('show');
  }
}

export const ipcMain = { handle: (channel) => record('ipc', { channel }) };
export const shell = { openPath: async () => '' };
export const contextBridge = { exposeInMainWorld: () => undefined };
export const ipcRenderer = { invoke: async () => undefined };

process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  if (text.includes('quit')) app.quit();
});
process.on('SIGTERM', () => app.quit());
