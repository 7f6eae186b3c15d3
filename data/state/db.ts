import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import { fileURLToPath } from 'node:url';
import { makePrivateDirSync, PRIVATE_FILE_MODE, touchPrivateFileSync } from '../../lib/private-files.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * The API's transactional state (accounts, sessions, keys, usage, idempotency, organisations, documents)
 * behind one small interface, so a shared PostgreSQL can replace SQLite when several API instances run.
 * node:sqlite is synchronous: a transaction runs start to finish without another request interleaving,
 * which is what makes the usage meter exact under concurrency within one process; WAL and
 * `BEGIN IMMEDIATE` keep it exact across processes sharing the file.
 */
export interface StateDb {
  run(sql: string, ...params: SQLInputValue[]): { changes: number };
  get<T>(sql: string, ...params: SQLInputValue[]): T | undefined;
  all<T>(sql: string, ...params: SQLInputValue[]): T[];
  /** Runs `work` inside one immediate transaction; rolls back when it throws. */
  transaction<T>(work: () => T): T;
  close(): void;
}

/** Thrown when the state store cannot be read or written: callers answer 503 and do not run the work. */
export class StateUnavailableError extends Error {
  override readonly name = 'StateUnavailableError';
}

/**
 * Opens (creating if needed) `<dataDir>/state/state.sqlite`, or an in-memory store for `':memory:'`. The folder is
 * 0700 and the store 0600 whatever the umask (it holds accounts, sessions and usage); SQLite gives its write-ahead
 * log and shared-memory files the store's own mode, and ones an earlier version left open are mended here.
 */
export function openStateDb(location: string): StateDb {
  let path = ':memory:';
  if (location !== ':memory:') {
    const dir = join(location, 'state');
    makePrivateDirSync(dir);
    path = join(dir, 'state.sqlite');
    touchPrivateFileSync(path);
    for (const companion of [`${path}-wal`, `${path}-shm`]) {
      try {
        chmodSync(companion, PRIVATE_FILE_MODE);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  const db = new DatabaseSync(path);
  // synchronous=NORMAL: in WAL mode a commit then skips its fsync (about 2 ms, blocking the event loop, on
  // every keyed request and metered call); a power cut may lose the last commits but never corrupts the store.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 2000;');
  migrate(db);
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof StateUnavailableError) throw error;
      const code = (error as { errcode?: number }).errcode;
      // SQLITE_BUSY (5), LOCKED (6), IOERR (10), CORRUPT (11), FULL (13), CANTOPEN (14): the store, not the query, failed.
      if (code !== undefined && [5, 6, 10, 11, 13, 14].includes(code & 0xff)) throw new StateUnavailableError((error as Error).message);
      throw error;
    }
  };
  // Preparing costs several times what running a small statement does, and the rate headers run one on every request.
  const statements = new LRUCache<string, StatementSync>({ max: 500 });
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  let depth = 0;
  return {
    run: (sql, ...params) => guard(() => ({ changes: Number(prepared(sql).run(...params).changes) })),
    get: <T>(sql: string, ...params: SQLInputValue[]) => guard(() => prepared(sql).get(...params) as T | undefined),
    all: <T>(sql: string, ...params: SQLInputValue[]) => guard(() => prepared(sql).all(...params) as T[]),
    transaction<T>(work: () => T): T {
      if (depth > 0) return work();
      guard(() => db.exec('BEGIN IMMEDIATE'));
      depth++;
      try {
        const result = work();
        // A commit can fail on its own (a full disk, a busy checkpoint): the store's failure, answered 503.
        guard(() => db.exec('COMMIT'));
        return result;
      } catch (error) {
        // A failed COMMIT may have rolled back already; the first error is the one to report.
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        depth--;
      }
    },
    close: () => db.close(),
  };
}

/** Applies `migrations/*.sql` in name order, once each. */
function migrate(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name));
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
    if (applied.has(file)) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(file, new Date().toISOString());
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new Error(`state migration ${file} failed: ${(error as Error).message}`);
    }
  }
}
