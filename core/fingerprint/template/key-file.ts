import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** File name of the template key inside the data directory. */
export const KEY_FILE_NAME = 'fingerprint-template.key';

/**
 * Load the 32-byte template key from `dataDir`, creating it (mode 0600; two processes starting together end
 * up with one key) on first use. A key file of the wrong size is refused rather than replaced:
 * replacing it would make every stored template unreadable.
 */
export function loadOrCreateTemplateKey(dataDir: string): Buffer {
  return loadOrCreateTemplateKeyFile(path.join(dataDir, KEY_FILE_NAME));
}

/** `loadOrCreateTemplateKey` for a key file anywhere (replicas of a shared store share one key file). */
export function loadOrCreateTemplateKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) createKeyFile(file);
  fs.chmodSync(file, 0o600);
  const key = fs.readFileSync(file);
  if (key.length !== 32)
    throw new Error(`Template key file ${file} must hold exactly 32 bytes, found ${key.length}`);
  return key;
}

/**
 * Write a fresh key beside `file` and hard-link it into place: the key file appears whole or not at all, so a
 * process starting beside this one, or after a crash here, never reads a half-written key. A link onto an
 * existing file fails, so of two processes creating at once, the first one's key stands.
 */
function createKeyFile(file: string): void {
  const staging = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(staging, 'wx', 0o600);
  try {
    try {
      fs.writeSync(fd, randomBytes(32));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(staging, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(staging, { force: true });
  }
}
