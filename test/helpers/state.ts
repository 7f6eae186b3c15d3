import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openStateDb, type StateDb } from '../../data/state/db.ts';

/**
 * The state store a test runs on. `npm test` runs the suite on SQLite, then the tests of the state store and the API
 * again on PostgreSQL: test/run.ts starts a throwaway cluster, migrates a template database on it and names it in
 * `STATE_TEST_POSTGRES_URL` (the cluster's `postgres` database) and `STATE_TEST_POSTGRES_TEMPLATE`.
 */
const ADMIN_URL = process.env.STATE_TEST_POSTGRES_URL || undefined;
const TEMPLATE = process.env.STATE_TEST_POSTGRES_TEMPLATE || 'state_template';

/** Which engine this test run is on. */
export const TEST_ENGINE: 'sqlite' | 'postgres' = ADMIN_URL ? 'postgres' : 'sqlite';

/** A new, empty, migrated store: SQLite in memory, or a fresh database copied from the migrated template. */
export async function openTestState(): Promise<StateDb> {
  return await openStateDb((await testDatabaseUrl()) ?? ':memory:');
}

/** A fresh database's URL on the run's PostgreSQL, for a server a test starts; undefined on SQLite (the data folder's store). */
export async function testDatabaseUrl(): Promise<string | undefined> {
  if (!ADMIN_URL) return undefined;
  const name = `state_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const databasesByDataDir = new Map<string, Promise<string | undefined>>();

/**
 * The database a test's data folder stands for: on PostgreSQL, one fresh database per folder for the whole test file,
 * so a store reopened on the same folder (a restarted server, a second process) finds what the first one wrote.
 */
export function testDatabaseUrlFor(dataDir: string): Promise<string | undefined> {
  let url = databasesByDataDir.get(dataDir);
  if (url === undefined) {
    url = testDatabaseUrl();
    databasesByDataDir.set(dataDir, url);
  }
  return url;
}

/** What `openStateDb` opens for a test's data folder: the folder itself on SQLite, its database on PostgreSQL. */
export async function testStateLocation(dataDir: string): Promise<string> {
  return (await testDatabaseUrlFor(dataDir)) ?? dataDir;
}

/** The environment a server child process needs to run on its data folder's store. */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  const url = await testDatabaseUrlFor(dataDir);
  return url === undefined ? {} : { DATABASE_URL: url };
}
