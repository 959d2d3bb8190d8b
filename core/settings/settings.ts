import type { SettingsRepository } from '../contracts/settings-repository.js';

/**
 * The operator settings, read synchronously from an in-memory copy (engines read them on every request) and written
 * through to the store. A write applies at once in this process; writes by other processes or replicas arrive
 * through the repository's change notices.
 */
export class Settings {
  private values: Record<string, unknown>;
  private readonly unwatch: () => void;
  /** Counts local writes, so a refresh that read before one does not undo it. */
  private writes = 0;

  private constructor(
    private readonly repository: SettingsRepository,
    values: Record<string, unknown>,
  ) {
    this.values = values;
    this.unwatch = repository.watch(() => {
      void this.refresh().catch(() => undefined);
    });
  }

  /** Load every setting from the store and follow other writers' changes. */
  static async open(repository: SettingsRepository): Promise<Settings> {
    return new Settings(repository, await repository.all());
  }

  /** The stored value, or `fallback` when the key was never set. */
  get<T>(key: string, fallback: T): T {
    return key in this.values ? (this.values[key] as T) : fallback;
  }

  /** Store a value; effective for the next read. */
  set(key: string, value: unknown): Promise<void> {
    return this.setMany({ [key]: value });
  }

  /** Store several values at once: all of them or, on a failure, none. */
  async setMany(values: Record<string, unknown>): Promise<void> {
    await this.repository.setMany(values);
    this.writes++;
    this.values = { ...this.values, ...structuredClone(values) };
  }

  /** Every key with its value, for the console's settings screen. */
  all(): Record<string, unknown> {
    return structuredClone(this.values);
  }

  /** Re-read every setting from the store (another writer changed them). */
  async refresh(): Promise<void> {
    for (;;) {
      const writes = this.writes;
      const values = await this.repository.all();
      if (writes !== this.writes) continue;
      this.values = values;
      return;
    }
  }

  /** Stop following other writers' changes. */
  close(): void {
    this.unwatch();
  }
}
