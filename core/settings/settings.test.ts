import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../storage/contract/harness.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import { tempStore, type TempStore } from '../testing/store.js';
import { SETTINGS, type SettingKey } from './schema.js';
import { Settings } from './settings.js';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
  temp = undefined;
});

describe('settings schema', () => {
  it('gives every setting a default that fits its own type and rules, and a meaning', () => {
    for (const [key, definition] of Object.entries(SETTINGS)) {
      expect(Value.Check(definition.schema, definition.default), key).toBe(true);
      expect(
        (definition as { check?: (v: unknown) => unknown }).check?.(definition.default),
        key,
      ).toBeUndefined();
      expect(definition.doc.length, key).toBeGreaterThan(20);
    }
  });
});

describe('settings', () => {
  it('reads the defaults until a value is stored, then the value, at once and after a restart', async () => {
    temp = await tempStore('idv-settings-');
    const { settings, store } = temp;
    expect(settings.get('auth.mode')).toBe('observe');
    expect(settings.get('fingerprint.thresholdOneInN')).toBe(10_000);
    expect(settings.isSet('auth.mode')).toBe(false);
    await settings.setMany({ 'auth.mode': 'enforce', 'server.bind': { host: '0.0.0.0', port: 9443 } });
    expect(settings.get('auth.mode')).toBe('enforce');
    expect(settings.isSet('auth.mode')).toBe(true);
    const reopened = await Settings.open(store.settings);
    expect(reopened.get('server.bind')).toEqual({ host: '0.0.0.0', port: 9443 });
    reopened.close();
  });

  it('refuses a value that does not fit, storing none of a batch', async () => {
    temp = await tempStore('idv-settings-');
    const { settings, store } = temp;
    const bad = { 'limits.rateLimitPerMinute': 50, 'fingerprint.qualityFloor': 101 };
    await expect(settings.setMany(bad)).rejects.toMatchObject({
      code: 'FIELD_INVALID',
      details: { field: 'fingerprint.qualityFloor' },
    });
    await expect(
      settings.set('orchestrator.config', {
        ...SETTINGS['orchestrator.config'].default,
        decision: { approve_at: 0.5, review_from: 0.6 },
      }),
    ).rejects.toMatchObject({ code: 'FIELD_INVALID' });
    await expect(settings.setMany({ ['no.such' as SettingKey]: 1 })).rejects.toMatchObject({
      code: 'FIELD_INVALID',
    });
    expect(await store.settings.all()).toEqual({});
    expect(settings.get('limits.rateLimitPerMinute')).toBe(600);
  });

  it('reads an unusable stored value as the default and reports it, without failing', async () => {
    temp = await tempStore('idv-settings-');
    // Written behind the module's back: a hand edit, an older release.
    await temp.store.settings.setMany({
      'fingerprint.turn': 'sideways',
      'face.thresholdOneInN': -3,
      'limits.rateLimitPerMinute': 30,
      'orchestrator.config': { outbox_retention_days: 7 },
    });
    const warnings: string[] = [];
    const settings = await Settings.open(temp.store.settings, { warn: (m) => warnings.push(m) });
    expect(settings.get('fingerprint.turn')).toBe('upright');
    expect(settings.get('face.thresholdOneInN')).toBe(1_000);
    expect(settings.get('limits.rateLimitPerMinute')).toBe(30);
    // An older partial configuration is completed with the defaults.
    expect(settings.get('orchestrator.config')).toEqual({
      ...SETTINGS['orchestrator.config'].default,
      outbox_retention_days: 7,
    });
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/fingerprint\.turn/);
    expect(warnings.join('\n')).toMatch(/face\.thresholdOneInN/);
    settings.close();
  });

  it("tells listeners of a local write and of another process's write", async () => {
    temp = await tempStore('idv-settings-');
    const { settings } = temp;
    let changes = 0;
    settings.onChange(() => changes++);
    await settings.set('fingerprint.dedup', 'reject');
    expect(changes).toBe(1);
    const other = openSqliteStore(temp.dataDir);
    try {
      await other.settings.setMany({ 'auth.mode': 'enforce' });
      await eventually(() => settings.get('auth.mode') === 'enforce', 5000, 'the other write');
      expect(changes).toBe(2);
      expect(settings.get('fingerprint.dedup')).toBe('reject');
    } finally {
      await other.close();
    }
  });
});
