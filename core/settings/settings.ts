import { Value } from '@sinclair/typebox/value';
import type { SettingsRepository } from '../contracts/settings-repository.js';
import { CoreError } from '../errors.js';
import {
  isSettingKey,
  SETTINGS,
  type SettingDefinition,
  type SettingKey,
  type SettingValue,
  type SettingValues,
} from './schema.js';

/** How the settings module reports a stored value it cannot use. */
export interface SettingsOptions {
  /** Warning sink (process warnings by default); given the key and the problem, never a secret. */
  warn?: (message: string) => void;
}

/** Why a value does not fit its setting, or undefined when it does. */
function problemOf(definition: SettingDefinition, value: unknown): string | undefined {
  const first = Value.Errors(definition.schema, value).First();
  if (first) return `${first.path || 'value'} ${first.message}`;
  const problem = definition.check?.(value);
  return problem && `${problem.field}: ${problem.message}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The operator settings, typed by the schema (schema.ts). Reads are synchronous, from an in-memory copy checked once
 * per change: engines read settings on every request. A stored value that does not fit its setting reads as the
 * default and is reported, never thrown. A write is checked, stored, and applies to the next read in this process;
 * writes by other processes or replicas arrive through the repository's change notices (`onChange` hears both).
 */
export class Settings {
  private resolved = new Map<SettingKey, unknown>();
  private stored = new Set<SettingKey>();
  private readonly listeners = new Set<() => void>();
  private readonly unwatch: () => void;
  /** Counts local writes, so a refresh that read before one does not undo it. */
  private writes = 0;
  private closed = false;

  private constructor(
    private readonly repository: SettingsRepository,
    values: Record<string, unknown>,
    private readonly warn: (message: string) => void,
  ) {
    this.resolve(values);
    this.unwatch = repository.watch(() => {
      this.refresh().catch((error: unknown) => {
        // A re-read still running when its owner closed the store has nobody to tell.
        if (!this.closed) this.warn(`settings: re-reading after a change failed (${String(error)})`);
      });
    });
  }

  /** Load every setting from the store and follow other writers' changes. */
  static async open(repository: SettingsRepository, options: SettingsOptions = {}): Promise<Settings> {
    const warn =
      options.warn ??
      ((message: string) => {
        process.emitWarning(message, { code: 'IDV_SETTINGS' });
      });
    return new Settings(repository, await repository.all(), warn);
  }

  /** The setting's value: the stored one when it fits the schema, else the default. Do not mutate it. */
  get<K extends SettingKey>(key: K): SettingValue<K> {
    return (this.resolved.has(key) ? this.resolved.get(key) : SETTINGS[key].default) as SettingValue<K>;
  }

  /** True when a usable value is stored (an operator chose it), false when the default applies. */
  isSet(key: SettingKey): boolean {
    return this.stored.has(key);
  }

  /** Check and store one value; 400 FIELD_INVALID (naming the key) when it does not fit. */
  set<K extends SettingKey>(key: K, value: SettingValue<K>): Promise<void> {
    return this.setMany({ [key]: value });
  }

  /** Check and store several values: all of them or, on a failure, none. */
  async setMany(values: SettingValues): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      if (!isSettingKey(key)) throw new CoreError('FIELD_INVALID', `Unknown setting ${key}.`, { field: key });
      const problem = problemOf(SETTINGS[key], value);
      if (problem) throw new CoreError('FIELD_INVALID', `Invalid ${key}: ${problem}.`, { field: key });
    }
    await this.repository.setMany(values);
    this.writes++;
    for (const [key, value] of Object.entries(values) as [SettingKey, unknown][]) {
      this.resolved.set(key, deepFreeze(structuredClone(value)));
      this.stored.add(key);
    }
    this.changed();
  }

  /**
   * Call `listener` after every change, local or from another writer (a hook for caches built on settings);
   * returns the function that stops it.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-read every setting from the store (another writer changed them). */
  async refresh(): Promise<void> {
    for (;;) {
      const writes = this.writes;
      const values = await this.repository.all();
      if (writes !== this.writes) continue;
      this.resolve(values);
      this.changed();
      return;
    }
  }

  /** Stop following other writers' changes. */
  close(): void {
    this.closed = true;
    this.unwatch();
    this.listeners.clear();
  }

  /** Check every stored value of a known key once; those that do not fit are reported and read as the default. */
  private resolve(values: Record<string, unknown>): void {
    const resolved = new Map<SettingKey, unknown>();
    const stored = new Set<SettingKey>();
    for (const [key, raw] of Object.entries(values)) {
      if (!isSettingKey(key)) continue;
      const definition = SETTINGS[key] as SettingDefinition;
      const value = definition.prepare ? definition.prepare(raw) : raw;
      const problem = problemOf(definition, value);
      if (problem) {
        this.warn(`Setting ${key}: the stored value is not usable (${problem}); the default applies.`);
        continue;
      }
      resolved.set(key, deepFreeze(structuredClone(value)));
      stored.add(key);
    }
    this.resolved = resolved;
    this.stored = stored;
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
