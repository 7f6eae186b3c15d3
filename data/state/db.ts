import { openPostgresState } from './postgres.ts';
import { openSqliteState } from './sqlite.ts';

/** A value a statement binds: both engines take these as they are. */
export type StateValue = null | number | bigint | string | Uint8Array;

/**
 * The API's transactional state (accounts, sessions, keys, usage, idempotency, organisations, bids, jobs) behind
 * one asynchronous interface with two engines: SQLite (node:sqlite), the embedded default, and PostgreSQL, chosen
 * by `DATABASE_URL`, for several API instances sharing one store. Statements use `?` placeholders and the SQL both
 * engines speak (data/state/README.md); nothing outside this folder opens a connection.
 *
 * Inside `transaction(work)`, every statement `work` issues through this same object, however deep in the calls it
 * makes, runs in that transaction (an AsyncLocalStorage scope), so helpers need no transaction handle passed down.
 */
export interface StateDb {
  readonly engine: 'sqlite' | 'postgres';
  run(sql: string, ...params: StateValue[]): Promise<{ changes: number }>;
  get<T>(sql: string, ...params: StateValue[]): Promise<T | undefined>;
  all<T>(sql: string, ...params: StateValue[]): Promise<T[]>;
  /**
   * Runs `work` in one transaction that writes as if alone (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: serialisable,
   * retried on a serialisation failure or deadlock, so `work` must do nothing but state statements); rolls back when
   * it throws. A transaction opened inside another joins it.
   */
  transaction<T>(work: () => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * `read committed`: for work that orders itself by a row lock, its first statement writing the one row every
   * conflicting transaction also writes first (an upsert); later statements then see what those committed.
   * PostgreSQL's serialisable predicate locks cover whole index pages, so on a small table that every caller
   * writes (the meter's reservations) transactions on unrelated rows fail to serialise and retry; under a row lock
   * only those on the same row wait. SQLite ignores it: `BEGIN IMMEDIATE` already admits one writer at a time.
   * Default `serializable`.
   */
  isolation?: 'serializable' | 'read committed';
}

/** Thrown when the state store cannot be read or written: callers answer 503 and do not run the work. */
export class StateUnavailableError extends Error {
  override readonly name = 'StateUnavailableError';
}

/**
 * Whether `error` is the unique index `index` on `columns` (as `table.column`) refusing a row, on either engine:
 * SQLite names the columns in its message, PostgreSQL names the index (SQLSTATE 23505).
 */
export function refusedByUniqueIndex(error: unknown, index: string, columns: string): boolean {
  const { code, constraint, message } = (error ?? {}) as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === '23505') return constraint === index;
  return typeof message === 'string' && message.includes(`UNIQUE constraint failed: ${columns}`);
}

/**
 * Opens the state store, migrated to the newest schema: the PostgreSQL database a `postgres://` URL names
 * (`DATABASE_URL`), else `<dataDir>/state/state.sqlite`, or an in-memory SQLite store for `':memory:'`.
 */
export async function openStateDb(location: string): Promise<StateDb> {
  if (/^postgres(ql)?:\/\//.test(location)) return await openPostgresState(location);
  return openSqliteState(location);
}
