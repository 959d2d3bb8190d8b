import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** File name of the template key inside the data directory. */
export const KEY_FILE_NAME = 'fingerprint-template.key';

/**
 * Load the 32-byte template key from `dataDir`, creating it (mode 0600, exclusive create so two processes
 * never write different keys) on first use. A key file of the wrong size is refused rather than replaced:
 * replacing it would make every stored template unreadable.
 */
export function loadOrCreateTemplateKey(dataDir: string): Buffer {
  return loadOrCreateTemplateKeyFile(path.join(dataDir, KEY_FILE_NAME));
}

/** `loadOrCreateTemplateKey` for a key file anywhere (replicas of a shared store share one key file). */
export function loadOrCreateTemplateKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(fd, randomBytes(32));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, 0o600);
  const key = fs.readFileSync(file);
  if (key.length !== 32)
    throw new Error(`Template key file ${file} must hold exactly 32 bytes, found ${key.length}`);
  return key;
}
