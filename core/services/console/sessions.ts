import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleSessionRepository } from '../../contracts/console-repositories.js';
import { toConsoleUser, type ConsoleUser } from './accounts.js';

/** How long a console session lasts without signing in again. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** The cookie that carries the session id. */
export const SESSION_COOKIE = 'idv_console_session';

/** The stored form of a session id. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Console sessions: a random 256-bit id given to the browser once, stored only as its SHA-256. */
export class ConsoleSessions {
  constructor(
    private readonly sessions: ConsoleSessionRepository,
    private readonly ttlMs = SESSION_TTL_MS,
  ) {}

  /** Open a session for an account; returns the token for the cookie and its expiry. */
  async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + this.ttlMs);
    await this.sessions.create({
      idHash: hashSessionToken(token),
      userId,
      createdAt: new Date(now).toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { token, expiresAt };
  }

  /** The enabled account behind an unexpired session token, or undefined. */
  async resolve(token: string): Promise<ConsoleUser | undefined> {
    const found = await this.sessions.find(hashSessionToken(token));
    if (!found || found.user.disabledAt !== null || Date.parse(found.session.expiresAt) <= Date.now())
      return undefined;
    return toConsoleUser(found.user);
  }

  /** End one session (logout). */
  destroy(token: string): Promise<void> {
    return this.sessions.delete(hashSessionToken(token));
  }

  /** End every session of an account (disabled, demoted or password changed). */
  destroyAllFor(userId: string): Promise<void> {
    return this.sessions.deleteForUser(userId);
  }
}
