import { afterEach, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from '../testing/store.js';
import { bindAddress, storedBindAddress } from './bind-address.js';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
});

describe('bind address', () => {
  it('takes what was given, else the console choice saved in the data dir, else the defaults', async () => {
    temp = await tempStore('idv-bind-');
    expect(await storedBindAddress(temp.dataDir)).toBeNull();
    expect(await bindAddress(temp.dataDir, {})).toEqual({ host: '127.0.0.1', port: 8787 });
    await temp.settings.set('server.bind', { host: '0.0.0.0', port: 9443 });
    expect(await storedBindAddress(temp.dataDir)).toEqual({ host: '0.0.0.0', port: 9443 });
    expect(await bindAddress(temp.dataDir, {})).toEqual({ host: '0.0.0.0', port: 9443 });
    expect(await bindAddress(temp.dataDir, { host: '::1', port: '0' })).toEqual({ host: '::1', port: 0 });
    await expect(bindAddress(temp.dataDir, { port: '70000' })).rejects.toThrow(/Invalid port/);
  });
});
