import { AsyncLocalStorage } from 'node:async_hooks';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import { makePrivateDirSync, PRIVATE_FILE_MODE, touchPrivateFileSync } from '../../lib/private-files.ts';
import { StateUnavailableError, type StateDb, type StateValue } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The transaction a statement belongs to, while it is open. */
interface TransactionScope {
  open: boolean;
}

/**
 * The SQLite engine. node:sqlite is synchronous, so a statement outside a transaction runs at once; a transaction
 * holds the one connection across its awaits, so statements from other requests wait for it to end instead of
 * landing inside it. WAL and `BEGIN IMMEDIATE` keep writers exact across processes sharing the file.
 *
 * The folder is 0700 and the store 0600 whatever the umask (it holds accounts, sessions and usage); SQLite gives its
 * write-ahead log and shared-memory files the store's own mode, and ones an earlier version left open are mended here.
 */
export function openSqliteState(location: string): StateDb {
  const db = new DatabaseSync(sqlitePath(location));
  // synchronous=NORMAL: in WAL mode a commit then skips its fsync (about 2 ms, blocking the event loop, on
  // every keyed request and metered call); a power cut may lose the last commits but never corrupts the store.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 2000;');
  migrate(db);
  const prepared = statementCache(db);
  const connection = connectionLock();
  const scopes = new AsyncLocalStorage<TransactionScope>();
  const statement = async <T>(execute: () => T): Promise<T> => {
    if (scopes.getStore()?.open || connection.free()) return guard(execute);
    await connection.acquire();
    try {
      return guard(execute);
    } finally {
      connection.release();
    }
  };
  return {
    engine: 'sqlite',
    run: (sql, ...params) => statement(() => ({ changes: Number(prepared(sql).run(...params).changes) })),
    get: <T>(sql: string, ...params: StateValue[]) => statement(() => prepared(sql).get(...params) as T | undefined),
    all: <T>(sql: string, ...params: StateValue[]) => statement(() => prepared(sql).all(...params) as T[]),
    async transaction<T>(work: () => Promise<T>): Promise<T> {
      if (scopes.getStore()?.open) return work();
      await connection.acquire();
      const scope: TransactionScope = { open: true };
      try {
        guard(() => db.exec('BEGIN IMMEDIATE'));
        try {
          const result = await scopes.run(scope, work);
          // A commit can fail on its own (a full disk, a busy checkpoint): the store's failure, answered 503.
          guard(() => db.exec('COMMIT'));
          return result;
        } catch (error) {
          // A failed COMMIT may have rolled back already; the first error is the one to report.
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
      } finally {
        scope.open = false;
        connection.release();
      }
    },
    close: async () => db.close(),
  };
}

function sqlitePath(location: string): string {
  if (location === ':memory:') return location;
  const dir = join(location, 'state');
  makePrivateDirSync(dir);
  const path = join(dir, 'state.sqlite');
  touchPrivateFileSync(path);
  for (const companion of [`${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(companion, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return path;
}

/** SQLITE_BUSY (5), LOCKED (6), IOERR (10), CORRUPT (11), FULL (13), CANTOPEN (14): the store, not the query, failed. */
function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof StateUnavailableError) throw error;
    const code = (error as { errcode?: number }).errcode;
    if (code !== undefined && [5, 6, 10, 11, 13, 14].includes(code & 0xff)) throw new StateUnavailableError((error as Error).message);
    throw error;
  }
}

/** Preparing costs several times what running a small statement does, and the rate headers run one on every request. */
function statementCache(db: DatabaseSync): (sql: string) => StatementSync {
  const statements = new LRUCache<string, StatementSync>({ max: 500 });
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/** The one connection, held by a transaction from BEGIN to COMMIT; waiters take it in the order they asked. */
function connectionLock(): { free(): boolean; acquire(): Promise<void>; release(): void } {
  let held = false;
  const waiting: (() => void)[] = [];
  return {
    free: () => !held,
    acquire: () => {
      if (!held) {
        held = true;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else held = false;
    },
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
