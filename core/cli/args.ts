import path from 'node:path';
import { defaultDataDir } from '../settings/defaults.js';
import type { StoreLocation } from '../storage/open-store.js';

/** Parsed `--name value` / `--flag` arguments and the positional rest. */
export interface ParsedArgs {
  flags: Record<string, string | true>;
  positional: string[];
}

/** Parse command-line arguments (no dependency: the CLIs are small). */
export function parseArgs(argv: string[]): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags[arg.slice(2)] = argv[++i]!;
      else flags[arg.slice(2)] = true;
    } else positional.push(arg);
  }
  return { flags, positional };
}

/** A string flag, else the environment variable, else undefined. */
export function given(args: ParsedArgs, flag: string, env: string): string | undefined {
  const value = args.flags[flag];
  if (typeof value === 'string') return value;
  return process.env[env];
}

/** A string flag, else the environment variable, else the default. */
export function option(args: ParsedArgs, flag: string, env: string, fallback: string): string {
  return given(args, flag, env) ?? fallback;
}

/** The data directory: --data-dir, IDV_DATA_DIR, else ~/.idv-console. */
export function dataDirOf(args: ParsedArgs): string {
  return path.resolve(option(args, 'data-dir', 'IDV_DATA_DIR', defaultDataDir()));
}

/** The store: --store or IDV_STORE (a postgres:// URL shared by replicas), else the data directory's SQLite file. */
export function storeOf(args: ParsedArgs): StoreLocation {
  const url = given(args, 'store', 'IDV_STORE');
  return { dataDir: dataDirOf(args), ...(url ? { url } : {}) };
}

/** What every CLI's usage says of where the records are. */
export const STORE_USAGE = `Where the records are (every command):
  --data-dir DIR    (or IDV_DATA_DIR) the embedded SQLite store, default ~/.idv-console
  --store URL       (or IDV_STORE) a PostgreSQL store shared by replicas, e.g. postgres://idv@db:5432/idv`;
