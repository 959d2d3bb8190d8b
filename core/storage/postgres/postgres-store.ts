import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Store, StoreHealth } from '../../contracts/store.js';
import { PostgresApiKeyRepository } from './api-key-repository.js';
import { PostgresAuditRepository } from './audit-repository.js';
import { createPool, query } from './connection.js';
import {
  PostgresConsoleAccountRepository,
  PostgresConsoleSessionRepository,
} from './console-repositories.js';
import {
  PostgresDocumentProfileRepository,
  PostgresReferenceMarkRepository,
} from './document-repositories.js';
import { PostgresEnrollmentRepository } from './enrollment-repository.js';
import { applyMigrations, type PostgresMigration } from './migrate.js';
import { postgresMigrations } from './migrations/index.js';
import { Notifications } from './notifications.js';
import { PostgresOutboxRepository } from './outbox-repository.js';
import { PostgresSettingsRepository } from './settings-repository.js';

/** The URL with any password replaced, for messages and health. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * The shared store: one PostgreSQL database that several replicas use at once. Each handle has a connection pool
 * and, once something listens, one LISTEN connection (settings and enrollment change notices).
 */
export class PostgresStore implements Store {
  readonly settings: PostgresSettingsRepository;
  readonly apiKeys: PostgresApiKeyRepository;
  readonly audit: PostgresAuditRepository;
  readonly outbox: PostgresOutboxRepository;
  readonly enrollments: PostgresEnrollmentRepository;
  readonly documentProfiles: PostgresDocumentProfileRepository;
  readonly referenceMarks: PostgresReferenceMarkRepository;
  readonly consoleAccounts: PostgresConsoleAccountRepository;
  readonly consoleSessions: PostgresConsoleSessionRepository;
  private readonly notifications: Notifications;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly serverVersion: string,
  ) {
    this.notifications = new Notifications(url);
    this.settings = new PostgresSettingsRepository(pool, this.notifications, randomUUID());
    this.apiKeys = new PostgresApiKeyRepository(pool);
    this.audit = new PostgresAuditRepository(pool);
    this.outbox = new PostgresOutboxRepository(pool);
    this.enrollments = new PostgresEnrollmentRepository(pool, this.notifications, this.audit);
    this.documentProfiles = new PostgresDocumentProfileRepository(pool);
    this.referenceMarks = new PostgresReferenceMarkRepository(pool);
    this.consoleAccounts = new PostgresConsoleAccountRepository(pool);
    this.consoleSessions = new PostgresConsoleSessionRepository(pool);
  }

  async keyCheck(value: string): Promise<string> {
    await query(
      this.pool,
      "INSERT INTO store_facts (key, value) VALUES ('template_key_check', $1) ON CONFLICT DO NOTHING",
      [value],
    );
    const [row] = await query<{ value: string }>(
      this.pool,
      "SELECT value FROM store_facts WHERE key = 'template_key_check'",
    );
    return row!.value;
  }

  async health(): Promise<StoreHealth> {
    const facts = { postgres: this.serverVersion, database: redactUrl(this.url) };
    if (this.closed) return { reachable: false, ...facts };
    try {
      await query(this.pool, 'SELECT 1');
      return {
        reachable: true,
        ...facts,
        change_notices: this.notifications.connected ? 'listening' : 'reconnecting',
      };
    } catch {
      return { reachable: false, ...facts };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.notifications.close();
    await this.pool.end();
  }
}

/**
 * Open the PostgreSQL store at `url` (postgres://user@host:port/db), applying pending migrations under an advisory
 * lock. Fails with a clear message when the database cannot be reached.
 */
export async function openPostgresStore(
  url: string,
  migrations: readonly PostgresMigration[] = postgresMigrations,
): Promise<PostgresStore> {
  const pool = createPool(url);
  try {
    await applyMigrations(pool, migrations);
    const [row] = await query<{ v: string }>(pool, "SELECT current_setting('server_version') AS v");
    return new PostgresStore(pool, url, row?.v ?? 'unknown');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open the PostgreSQL store ${redactUrl(url)}: ${reason}`);
  }
}
