import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CoreError } from '../../errors.js';

const MAGIC = Buffer.from('IDVE', 'latin1');
const ENVELOPE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + 1 + IV_BYTES + TAG_BYTES;

/**
 * Encrypt a template with AES-256-GCM: "IDVE", envelope version, 12-byte random IV, 16-byte tag, ciphertext.
 * `associated` (e.g. the enrollment's mobile number) is authenticated but not stored, so a blob copied to
 * another row fails to decrypt.
 */
export function sealTemplate(plain: Uint8Array, key: Buffer, associated = ''): Buffer {
  if (key.length !== 32) throw new Error('Template key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.concat([Buffer.from([ENVELOPE_VERSION]), Buffer.from(associated, 'utf8')]));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, Buffer.from([ENVELOPE_VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Decrypt and authenticate a sealed template; any tampering (or the wrong key) is a clean UNPROCESSABLE error. */
export function openTemplate(sealed: Uint8Array, key: Buffer, associated = ''): Buffer {
  const buf = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const fail = (why: string): never => {
    throw new CoreError('UNPROCESSABLE', `Stored fingerprint template cannot be opened: ${why}.`);
  };
  if (buf.length < HEADER_BYTES || !buf.subarray(0, MAGIC.length).equals(MAGIC))
    fail('not an encrypted template');
  if (buf[MAGIC.length] !== ENVELOPE_VERSION) fail('unknown envelope version');
  const iv = buf.subarray(MAGIC.length + 1, MAGIC.length + 1 + IV_BYTES);
  const tag = buf.subarray(MAGIC.length + 1 + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.concat([Buffer.from([ENVELOPE_VERSION]), Buffer.from(associated, 'utf8')]));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(buf.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    return fail('authentication failed (tampered data or wrong key)');
  }
}
