import type { Database } from 'better-sqlite3';

/** One numbered schema change. Numbers are unique and only ever appended; ranges per area keep them apart. */
export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Database) => void);
}
