import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { StateUnavailableError, type StateDb, type StateValue, type TransactionOptions } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations-postgres/', import.meta.url));

/** Any fixed number: every instance takes the same session lock before migrating, so one migrates and the rest wait. */
const MIGRATION_LOCK_KEY = 3_000_030_001;

export interface PostgresStateOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** How long a statement waits for a free connection before the store counts as unavailable (default 5 s). */
  connectionTimeoutMillis?: number;
  /** Attempts of a transaction that keeps failing to serialise (default 8). */
  transactionAttempts?: number;
  /** Apply migrations-postgres/ at open (default true). */
  migrate?: boolean;
}

/** The client of an open transaction; statements in its AsyncLocalStorage scope go to it while `open`. */
interface TransactionScope {
  client: pg.PoolClient;
  open: boolean;
  /** A statement inside failed to serialise: if `work` swallowed that error, the transaction is still retried. */
  serialisationFailed: boolean;
}

/**
 * The PostgreSQL engine: a `pg` pool, `?` placeholders translated to `$n`, results typed as the SQLite engine
 * gives them (integers and numerics as numbers, booleans as 1/0, BYTEA as Uint8Array), serialisable transactions
 * retried on a serialisation failure or deadlock, and every connection failure reported as StateUnavailableError.
 */
export async function openPostgresState(url: string, options: PostgresStateOptions = {}): Promise<StateDb> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    types: stateTypes(),
  });
  // An idle connection the server drops emits here; without a listener that error would end the process. The
  // pool discards the connection and the next statement opens another.
  pool.on('error', () => {});
  try {
    if (options.migrate ?? true) await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw unavailableOr(error);
  }
  const scopes = new AsyncLocalStorage<TransactionScope>();
  const attempts = options.transactionAttempts ?? 8;

  const statements = new PreparedStatements();

  async function query(sql: string, params: StateValue[]): Promise<pg.QueryResult> {
    const scope = scopes.getStore();
    if (!scope?.open) {
      try {
        return await pool.query(statements.config(sql, params));
      } catch (error) {
        if (!isStalePlan(error)) throw unavailableOr(error);
        // Another instance's migration changed the columns this statement returns: prepare it afresh, once.
        statements.renew();
        return pool.query(statements.config(sql, params)).catch((retryError: unknown) => Promise.reject(unavailableOr(retryError)));
      }
    }
    try {
      return await scope.client.query(statements.config(sql, params));
    } catch (error) {
      if (isSerialisationFailure(error)) scope.serialisationFailed = true;
      else if (isStalePlan(error)) {
        statements.renew();
        // The transaction is aborted; its retry prepares the statements afresh.
        scope.serialisationFailed = true;
      }
      throw unavailableOr(error);
    }
  }

  return {
    engine: 'postgres',
    run: async (sql, ...params) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    get: async <T>(sql: string, ...params: StateValue[]) => (await query(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, ...params: StateValue[]) => (await query(sql, params)).rows as T[],
    async transaction<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      if (scopes.getStore()?.open) return work();
      const begin = `BEGIN ISOLATION LEVEL ${options.isolation === 'read committed' ? 'READ COMMITTED' : 'SERIALIZABLE'}`;
      for (let attempt = 1; ; attempt++) {
        const outcome = await attemptTransaction(pool, scopes, begin, work);
        if (outcome.done) return outcome.value;
        if (attempt >= attempts) throw new StateUnavailableError(`the transaction did not serialise in ${attempts} attempts: ${outcome.error.message}`);
        // Jittered back-off, so transactions that collided do not collide again in step.
        await sleep(Math.random() * Math.min(100, 2 ** attempt));
      }
    },
    close: () => pool.end(),
  };
}

type Attempt<T> = { done: true; value: T } | { done: false; error: Error };

/** One try of a transaction: its value, a failure to serialise (to try again), or a throw. */
async function attemptTransaction<T>(pool: pg.Pool, scopes: AsyncLocalStorage<TransactionScope>, begin: string, work: () => Promise<T>): Promise<Attempt<T>> {
  const client = await pool.connect().catch((error: unknown) => Promise.reject(unavailableOr(error)));
  const scope: TransactionScope = { client, open: true, serialisationFailed: false };
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const value = await scopes.run(scope, work);
    scope.open = false;
    const commit = await client.query('COMMIT');
    // COMMIT of a transaction an earlier failed statement aborted answers ROLLBACK instead of failing.
    if (commit.command === 'ROLLBACK') {
      if (scope.serialisationFailed) return { done: false, error: new Error('a statement failed to serialise') };
      throw new Error('the transaction was rolled back: a statement in it failed and the failure was caught');
    }
    return { done: true, value };
  } catch (error) {
    scope.open = false;
    await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError as Error));
    if (isSerialisationFailure(error) || (scope.serialisationFailed && !(error instanceof StateUnavailableError))) {
      return { done: false, error: error as Error };
    }
    throw unavailableOr(error);
  } finally {
    scope.open = false;
    // A connection that could not roll back is closed rather than handed to the next caller mid-transaction.
    client.release(broken);
  }
}

/**
 * Every caller statement as a named prepared statement: PostgreSQL parses, analyses and plans a statement once per
 * connection instead of on every execution, and the driver sends only Bind and Execute after the first (bench row (r):
 * parsing and planning were nearly half of PostgreSQL's CPU for the meter's one-row statements). Callers issue a fixed set of
 * statements, so a name per distinct text (at most `MAX_NAMED`, beyond which a statement runs unnamed) stays
 * bounded on each connection.
 */
class PreparedStatements {
  static readonly MAX_NAMED = 2_000;
  readonly #names = new Map<string, string>();
  /** Bumped when a prepared plan went stale: every statement then gets a new name, prepared again on each connection. */
  #generation = 0;

  config(sql: string, values: StateValue[]): pg.QueryConfig<StateValue[]> {
    const text = positional(sql);
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < PreparedStatements.MAX_NAMED) {
      name = `state_${this.#generation}_${this.#names.size}`;
      this.#names.set(text, name);
    }
    return name === undefined ? { text, values } : { name, text, values };
  }

  renew(): void {
    this.#names.clear();
    this.#generation++;
  }
}

/**
 * 0A000 "cached plan must not change result type": a prepared `SELECT *` whose table another instance's migration
 * altered. PostgreSQL replans a prepared statement after DDL by itself unless its result columns changed.
 */
function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '0A000' && /cached plan must not change result type/.test((error as Error).message);
}

/** 40001 serialization_failure, 40P01 deadlock_detected: the transaction may succeed if run again. */
function isSerialisationFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53', '57', '58'];
const UNAVAILABLE_SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

/**
 * The store, not the statement, failed: connection exceptions (08), too many connections and other resource limits
 * (53), the server shutting down (57), its disk (58), the socket, or the pool's own time limits.
 * 57014 (a statement cancelled by statement_timeout) is the statement's own failure and stays as it is.
 */
function unavailableOr(error: unknown): unknown {
  if (error instanceof StateUnavailableError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  const lost =
    (sqlState !== undefined && sqlState !== '57014' && UNAVAILABLE_SQLSTATE_CLASSES.includes(sqlState.slice(0, 2))) ||
    (typeof code === 'string' && UNAVAILABLE_SYSTEM_CODES.has(code)) ||
    (error instanceof AggregateError && error.errors.some((inner) => unavailableOr(inner) instanceof StateUnavailableError)) ||
    UNAVAILABLE_MESSAGES.test(error.message);
  return lost ? new StateUnavailableError(error.message, { cause: error }) : error;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const BOOL_OID = 16;
const BYTEA_OID = 17;

/** Type parsers of this pool only (the `pg` defaults stay as they are for anything else in the process). */
function stateTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, 'text', (value) => {
    const number = Number(value);
    // As node:sqlite does for an integer beyond 2^53: refuse rather than round.
    if (!Number.isSafeInteger(number)) throw new RangeError(`state integer ${value} is beyond what a JS number holds exactly`);
    return number;
  });
  types.setTypeParser(NUMERIC_OID, 'text', (value) => Number(value));
  types.setTypeParser(BOOL_OID, 'text', (value) => (value === 't' ? 1 : 0));
  types.setTypeParser(BYTEA_OID, 'text', (value) => {
    const bytes = Buffer.from(value.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });
  return types;
}

const translations = new Map<string, string>();

/**
 * `?` and `?NNN` placeholders as `$1, $2, …`, skipping string literals ('…', E'…' with backslash escapes, $tag$…$tag$), quoted
 * identifiers and comments. Callers' statements are a fixed set, so the translations are kept.
 */
export function positional(sql: string): string {
  let translated = translations.get(sql);
  if (translated === undefined) {
    translated = translatePlaceholders(sql);
    if (translations.size < 2_000) translations.set(sql, translated);
  }
  return translated;
}

function translatePlaceholders(sql: string): string {
  let out = '';
  let highest = 0;
  let i = 0;
  while (i < sql.length) {
    const end = skipLiteral(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else if (sql[i] === '?') {
      // `?NNN` names its parameter; a bare `?` takes the one after the highest so far (SQLite's rule).
      const numbered = /^\?(\d+)/.exec(sql.slice(i, i + 12));
      const index = numbered ? Number(numbered[1]) : highest + 1;
      highest = Math.max(highest, index);
      out += `$${index}`;
      i += numbered ? numbered[0].length : 1;
    } else {
      out += sql[i];
      i++;
    }
  }
  return out;
}

/** Where the literal, quoted identifier or comment starting at `i` ends; `i` itself when none starts there. */
function skipLiteral(sql: string, i: number): number {
  const c = sql[i];
  const next = sql[i + 1];
  if (c === '-' && next === '-') {
    const newline = sql.indexOf('\n', i);
    return newline === -1 ? sql.length : newline;
  }
  if (c === '/' && next === '*') return skipBlockComment(sql, i);
  if (c === "'") return skipQuoted(sql, i, "'");
  if ((c === 'E' || c === 'e') && next === "'" && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) return skipEscapeString(sql, i + 1);
  if (c === '"') return skipQuoted(sql, i, '"');
  if (c === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    if (tag && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const close = sql.indexOf(tag[0], i + tag[0].length);
      return close === -1 ? sql.length : close + tag[0].length;
    }
  }
  return i;
}

/** '…' or "…", where a doubled quote stands for one. */
function skipQuoted(sql: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === quote) {
      if (sql[j + 1] === quote) j += 2;
      else return j + 1;
    } else j++;
  }
  return sql.length;
}

/** E'…': a backslash escapes the next character, and '' stands for one quote. */
function skipEscapeString(sql: string, quoteAt: number): number {
  let j = quoteAt + 1;
  while (j < sql.length) {
    if (sql[j] === '\\') j += 2;
    else if (sql[j] === "'") {
      if (sql[j + 1] === "'") j += 2;
      else return j + 1;
    } else j++;
  }
  return sql.length;
}

/** /* … *\/, which PostgreSQL lets nest. */
function skipBlockComment(sql: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < sql.length) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++;
      j += 2;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--;
      j += 2;
      if (depth === 0) return j;
    } else j++;
  }
  return sql.length;
}

/**
 * Applies `migrations-postgres/*.sql` in name order, once each, under a session advisory lock: when several instances
 * start together one migrates and the others wait, then find nothing left to apply. Refuses a database whose text
 * collation is not byte order, since callers compare and page by ISO strings and ids as SQLite orders them.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ collation: string }>('SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()');
    const collation = rows[0]?.collation ?? '';
    if (!['C', 'POSIX', 'C.UTF-8', 'C.utf8', 'ucs_basic'].includes(collation)) {
      throw new Error(`the state database's collation is ${collation}; create it with LC_COLLATE 'C' (text must sort in byte order, as in SQLite)`);
    }
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
      const applied = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
      for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
        if (applied.has(file)) continue;
        await applyMigration(client, file);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function applyMigration(client: pg.PoolClient, file: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
    await client.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [file, new Date().toISOString()]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new Error(`state migration ${file} failed: ${(error as Error).message}`, { cause: error });
  }
}
