import os from 'node:os';
import path from 'node:path';

/** Address the server binds when neither a flag, the environment nor the console's saved choice says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';

/** Port the server listens on by default. */
export const DEFAULT_PORT = 8787;

/** The data directory (database, template key) when neither `--data-dir` nor IDV_DATA_DIR is given. */
export function defaultDataDir(): string {
  return path.join(os.homedir(), '.idv-console');
}
