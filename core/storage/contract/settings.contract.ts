import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, type StoreFactory, type StoreUnderTest } from './harness.js';

/** SettingsRepository: JSON values by key, atomic multi-key writes, change notices from other writers. */
export function settingsContract(factory: StoreFactory): void {
  describe('settings repository', () => {
    let subject: StoreUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('keeps JSON values by key and removes them', async () => {
      const { settings } = subject.store;
      expect(await settings.all()).toEqual({});
      const values = {
        'a.number': 600,
        'a.text': 'enforce',
        'a.object': { host: '0.0.0.0', port: 9443 },
        'a.null': null,
      };
      await settings.setMany(values);
      expect(await settings.all()).toEqual(values);
      await settings.setMany({ 'a.number': 3 });
      expect((await settings.all())['a.number']).toBe(3);
      await settings.remove(['a.text', 'never.set']);
      expect(Object.keys(await settings.all()).sort()).toEqual(['a.null', 'a.number', 'a.object']);
    });

    it('writes several keys all or none', async () => {
      const { settings } = subject.store;
      await expect(settings.setMany({ 'b.first': 1, 'b.second': 10n })).rejects.toThrow();
      expect(await settings.all()).toEqual({});
    });

    it('tells a watcher when another handle changed settings, and stops when asked', async () => {
      let notices = 0;
      const stop = subject.store.settings.watch(() => notices++);
      const other = await subject.another();
      await other.settings.setMany({ 'c.mode': 'enforce' });
      await eventually(() => notices > 0, 5000, 'the change notice');
      expect((await subject.store.settings.all())['c.mode']).toBe('enforce');
      stop();
      const seen = notices;
      await other.settings.setMany({ 'c.mode': 'observe' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(notices).toBe(seen);
    });
  });
}
