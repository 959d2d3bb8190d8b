/**
 * States a test needs that no repository operation produces (an older index version, a tampered audit row, a crash
 * between a publish and its mark), made with SQL here so that no SQL lives outside the storage adapter.
 */
import { openDatabase, type Database } from './database.js';
import { allMigrations } from './migrations/index.js';
import type { SqliteStore } from './sqlite-store.js';

/** Rows of a table (tests check what is, or is not, stored). */
export function countRows(store: SqliteStore, table: string, where = '1 = 1', ...args: unknown[]): number {
  return (
    store.connection.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...args) as {
      n: number;
    }
  ).n;
}

/** Make every enrollment look indexed by an older index version, optionally without its cylinders. */
export function ageIndexMaterial(store: SqliteStore, options: { dropCylinders: boolean }): void {
  store.connection
    .prepare(
      `UPDATE fingerprint_enrollments SET embedding_version = 1${options.dropCylinders ? ', cylinders = NULL' : ''}`,
    )
    .run();
}

/** The sealed template stored for a number. */
export function storedTemplate(store: SqliteStore, mobile: string): Buffer | undefined {
  return (
    store.connection.prepare('SELECT template FROM fingerprint_enrollments WHERE mobile = ?').get(mobile) as
      { template: Buffer } | undefined
  )?.template;
}

/** Rows in the 1:N vector index of an enrollment id. */
export function vectorRows(store: SqliteStore, id: number): number {
  return countRows(store, 'fingerprint_vectors', 'rowid = ?', BigInt(id));
}

/** Change a stored audit row behind the chain's back (the trigger that refuses it is dropped first). */
export function tamperAuditRow(store: SqliteStore, seq: number, resultStatus: string): void {
  store.connection.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
  store.connection.prepare('UPDATE audit_log SET result_status = ? WHERE seq = ?').run(resultStatus, seq);
}

/** Delete a stored audit row behind the chain's back. */
export function deleteAuditRow(store: SqliteStore, seq: number): void {
  store.connection.exec('DROP TRIGGER IF EXISTS audit_log_no_delete');
  store.connection.prepare('DELETE FROM audit_log WHERE seq = ?').run(seq);
}

/** What a crash between the broker's ack and the mark leaves: the event unpublished and unclaimed. */
export function markUnpublished(store: SqliteStore, eventId: string): void {
  store.connection
    .prepare('UPDATE orchestrator_outbox SET published_at = NULL, claimed_until = NULL WHERE event_id = ?')
    .run(eventId);
}

/** A database of an older release: migrated only to schema versions below the one given. */
export interface OlderDatabase {
  connection: Database;
  close(): void;
}

/** Open this data dir's database migrated only to schema versions below `version` (an older release's). */
export function openAtSchema(dataDir: string, version: number): OlderDatabase {
  const { db } = openDatabase(
    dataDir,
    allMigrations.filter((m) => m.version < version),
  );
  return { connection: db, close: () => db.close() };
}

/** Store a setting as every schema since the first has (JSON text). */
export function insertSetting(old: OlderDatabase, key: string, value: unknown): void {
  old.connection
    .prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)')
    .run(key, JSON.stringify(value), new Date().toISOString());
}

/** An enrollment as schema 10 stored it: no cylinders, its vector in the unsharded vec0 table. */
export function insertSchema10Enrollment(
  store: OlderDatabase,
  row: { mobile: string; template: Buffer; modelVersion: string; quality: number; minutiaeCount: number },
  embedding: Float32Array,
): void {
  const now = new Date().toISOString();
  const id = store.connection
    .prepare(
      `INSERT INTO fingerprint_enrollments (mobile, template, model_version, embedding_version, quality, minutiae_count, created_at, updated_at)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
    )
    .run(
      row.mobile,
      row.template,
      row.modelVersion,
      row.quality,
      row.minutiaeCount,
      now,
      now,
    ).lastInsertRowid;
  store.connection
    .prepare('INSERT INTO fingerprint_vectors (rowid, embedding) VALUES (?, ?)')
    .run(BigInt(id), Buffer.from(embedding.buffer, embedding.byteOffset, embedding.byteLength));
}
