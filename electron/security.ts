import type { BrowserWindow, Session, WebContents } from 'electron';

/** Web preferences of every console window (Electron's security checklist). */
export const secureWebPreferences = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  spellcheck: false,
} as const;

/** Keep a window on the console's own origin: no navigation away, no new windows. */
export function lockNavigation(contents: WebContents, origin: string): void {
  contents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== origin) event.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Deny every permission request except the camera (media) for the console's own origin. */
export function restrictPermissions(session: Session, origin: string): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(permission === 'media' && new URL(contents.getURL()).origin === origin);
  });
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) => permission === 'media' && requestingOrigin === origin,
  );
}

/** Show the window once its first paint is ready, to avoid a white flash. */
export function showWhenReady(window: BrowserWindow): void {
  window.once('ready-to-show', () => {
    window.show();
  });
}
