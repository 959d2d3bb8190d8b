/**
 * Raw settings storage: JSON values by key. Typing, defaults and validation are core/settings' (the one module
 * routes and engines read settings through); a repository only keeps what it is given.
 */
export interface SettingsRepository {
  /** Every stored key with its JSON value. */
  all(): Promise<Record<string, unknown>>;
  /** Store several values at once: all of them or, on a failure, none. */
  setMany(values: Readonly<Record<string, unknown>>): Promise<void>;
  /** Remove keys (absent keys are ignored), atomically. */
  remove(keys: readonly string[]): Promise<void>;
  /**
   * Call `listener` when settings may have been changed by another writer (another process on the same file, another
   * replica on the same database), so a reader can refresh its copy; returns the function that stops it. Writes made
   * through this repository are not reported: their writer knows.
   */
  watch(listener: () => void): () => void;
}
