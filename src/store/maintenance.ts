import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ORPHAN_QUERIES } from './orphans.js';

/**
 * Store care for operators: an integrity check (SQLite's own checks plus the relations the schema
 * cannot enforce) and an online backup that is safe while the server and cron use the file.
 */

export interface StoreCheck {
  path: string;
  ok: boolean;
  integrity: string[];
  foreignKeyViolations: Array<{ table: string; rowid: number | null; parent: string }>;
  /** Rows that point at something that no longer exists, by relation. */
  orphans: Array<{ relation: string; rows: number }>;
}


export function checkStore(path: string): StoreCheck {
  const full = resolve(path);
  if (!existsSync(full)) throw new Error(`no store at ${full}`);
  // Read-write on purpose: after a crash the WAL must be recovered before anything can be read, and
  // a read-only connection cannot do that. The checks themselves change nothing.
  const db = new Database(full, { fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    const fk = (db.pragma('foreign_key_check') as Array<{ table: string; rowid: number | null; parent: string }>).map((r) => ({ table: r.table, rowid: r.rowid, parent: r.parent }));
    const tables = new Set((db.prepare(`select name from sqlite_master where type = 'table'`).all() as Array<{ name: string }>).map((r) => r.name));
    const orphans: StoreCheck['orphans'] = [];
    for (const [relation, sql] of ORPHAN_QUERIES) {
      const [child, parent] = relation.split(' -> ') as [string, string];
      if (!tables.has(child) || !tables.has(parent)) continue;
      const n = (db.prepare(sql).get() as { n: number }).n;
      if (n > 0) orphans.push({ relation, rows: n });
    }
    const ok = integrity.length === 1 && integrity[0] === 'ok' && fk.length === 0 && orphans.length === 0;
    return { path: full, ok, integrity, foreignKeyViolations: fk, orphans };
  } finally {
    db.close();
  }
}

export interface BackupResult {
  source: string;
  target: string;
  bytes: number;
  pages: number;
  check: StoreCheck;
}

/**
 * SQLite's online backup API (through better-sqlite3): copies a consistent snapshot page by page
 * while other connections keep reading and writing; then checks the copy.
 */
export async function backupStore(source: string, target: string): Promise<BackupResult> {
  const from = resolve(source);
  const to = resolve(target);
  if (!existsSync(from)) throw new Error(`no store at ${from}`);
  if (existsSync(to)) throw new Error(`${to} exists; choose a new file (a backup never overwrites)`);
  const db = new Database(from, { readonly: true, fileMustExist: true });
  let pages = 0;
  try {
    const progress = await db.backup(to);
    pages = progress.totalPages;
  } finally {
    db.close();
  }
  return { source: from, target: to, bytes: statSync(to).size, pages, check: checkStore(to) };
}
