import { contextBridge, ipcRenderer } from 'electron';

/** The few intent-named calls the console may make to the desktop shell (never ipcRenderer itself). */
export interface DesktopBridge {
  appVersion(): Promise<string>;
  openDataFolder(): Promise<string>;
}

const bridge = {
  appVersion: () => ipcRenderer.invoke('idv:app-version') as Promise<string>,
  openDataFolder: () => ipcRenderer.invoke('idv:open-data-folder') as Promise<string>,
} satisfies DesktopBridge;

contextBridge.exposeInMainWorld('idvDesktop', bridge);
