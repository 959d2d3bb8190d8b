import type { ApiKeyRepository } from './api-key-repository.js';
import type { AuditRepository } from './audit-repository.js';
import type { ConsoleAccountRepository, ConsoleSessionRepository } from './console-repositories.js';
import type { DocumentProfileRepository, ReferenceMarkRepository } from './document-repositories.js';
import type { EnrollmentRepository } from './enrollment-repository.js';
import type { OutboxRepository } from './outbox-repository.js';
import type { SettingsRepository } from './settings-repository.js';

/** What health says of the store: reachable, and facts about it (engine and versions). */
export interface StoreHealth {
  reachable: boolean;
  [fact: string]: string | boolean;
}

/**
 * Every record the service keeps, behind one adapter (SQLite embedded; a network database shared by replicas).
 * Each repository operation is atomic on its own: no transaction spans two calls.
 */
export interface Store {
  readonly settings: SettingsRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly audit: AuditRepository;
  readonly outbox: OutboxRepository;
  readonly enrollments: EnrollmentRepository;
  readonly documentProfiles: DocumentProfileRepository;
  readonly referenceMarks: ReferenceMarkRepository;
  readonly consoleAccounts: ConsoleAccountRepository;
  readonly consoleSessions: ConsoleSessionRepository;
  /**
   * Store `value` as the check value of the template key unless one is stored already; returns the stored one. A
   * replica whose key gives another value holds the wrong key file (its check is an HMAC, never the key).
   */
  keyCheck(value: string): Promise<string>;
  /** Whether the store answers, with its facts; never throws. */
  health(): Promise<StoreHealth>;
  /** Release the connection(s); pending operations finish first. */
  close(): Promise<void>;
}
