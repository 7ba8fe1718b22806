import { existsSync } from 'node:fs';
import { AppError } from '../errors.js';
import { migrationStatus, openStoreAt, pendingMigrations, schemeOf, type MigrationStatus } from './db.js';
import { backupStore, checkStore, type BackupResult, type StoreCheck } from './maintenance.js';
import { journal, MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from './paths.js';

/**
 * The operator's `db` commands on whatever store `--db` / PROPGRADE_DB names: each one picks its
 * engine here, so the CLI above never asks whether it holds a file or a server.
 */

const isServer = (target: string) => ['postgres', 'postgresql'].includes(schemeOf(target) ?? '');

/** Whether the store is known not to exist: only a file can be missing (a server answers or refuses when opened). */
export function storeIsMissing(target: string): boolean {
  return !isServer(target) && target !== ':memory:' && !existsSync(target);
}

export interface MigrateReport {
  path: string;
  /** Migrations this call applied. */
  applied: string[];
  pending: string[];
  /** Migrations the store holds now. */
  appliedTotal: number;
}

/** Opens the store (which migrates it) and says what that applied. */
export async function migrateStore(target: string): Promise<MigrateReport> {
  const pendingAt = async (migrate: boolean) => {
    const store = await openStoreAt(target, { migrate });
    try {
      return { label: store.label, pending: await pendingMigrations(store) };
    } finally {
      await store.close();
    }
  };
  const before = isServer(target) ? (await pendingAt(false)).pending : migrationStatus(target).pending;
  const after = await pendingAt(true);
  const total = journal(isServer(target) ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR).length;
  return { path: after.label, applied: before.filter((tag) => !after.pending.includes(tag)), pending: after.pending, appliedTotal: total - after.pending.length };
}

export type StoreStatus = MigrationStatus | import('./pg/maintenance.js').PgStatus;

/** Migrations and row counts, read without migrating (an SQLite file is not even created). */
export async function storeStatus(target: string): Promise<StoreStatus> {
  if (!isServer(target)) return migrationStatus(target);
  const { pgStatusAt } = await import('./pg/maintenance.js');
  return pgStatusAt(target);
}

/** `integrityLabel` names the check the `integrity` lines come from. */
export type CheckReport = (StoreCheck | import('./pg/maintenance.js').PgCheck) & { integrityLabel: string };

/** The store's checks; a missing SQLite file is NOT_FOUND. */
export async function checkStoreAt(target: string): Promise<CheckReport> {
  if (!isServer(target)) {
    try {
      return { ...checkStore(target), integrityLabel: 'integrity_check' };
    } catch (error) {
      throw new AppError('NOT_FOUND', error instanceof Error ? error.message : String(error));
    }
  }
  const { checkPgStoreAt } = await import('./pg/maintenance.js');
  return { ...(await checkPgStoreAt(target)), integrityLabel: 'integrity' };
}

/** `method` says how the copy was made, in words for the operator. */
export type BackupReport = { source: string; target: string; bytes: number; method: string; check: { ok: boolean } } & (BackupResult | import('./pg/maintenance.js').PgBackup);

/** A new backup file of the store: SQLite's online backup, or pg_dump's custom format; a backup never overwrites. */
export async function backupStoreAt(target: string, file: string): Promise<BackupReport> {
  if (isServer(target)) {
    const { backupPgStore } = await import('./pg/maintenance.js');
    const r = await backupPgStore(target, file);
    return { ...r, method: `pg_dump custom format (restore with pg_restore), ${r.tables} tables' data listed by pg_restore` };
  }
  try {
    const r = await backupStore(target, file);
    return { ...r, method: `${r.pages} pages` };
  } catch (error) {
    throw new AppError('BAD_INPUT', error instanceof Error ? error.message : String(error));
  }
}
