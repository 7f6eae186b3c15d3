import { sharedPostgresCluster, testStateEngine } from './postgres-cluster.ts';

/**
 * The state store a test runs on. `npm test` runs the suite on SQLite, then the tests of the state store and the API
 * again with `STATE_ENGINE=postgres` (test/run.ts): each test file then has a throwaway PostgreSQL cluster of its own
 * (test/helpers/postgres-cluster.ts), and each store a fresh database on it.
 */
export const TEST_ENGINE = testStateEngine();

/** The skip reason of a test that inspects the SQLite file itself (its locks, its modes, its write-ahead log). */
export const SQLITE_ONLY: string | false = TEST_ENGINE === 'postgres' ? 'inspects the SQLite file, which a PostgreSQL store does not have' : false;

/** A new, empty, migrated store on the run's engine: SQLite in memory, or a fresh database copied from the template. */
export { openTestState } from './postgres-cluster.ts';

/** A fresh database's URL on the run's PostgreSQL, for a server a test starts; undefined on SQLite (the data folder's store). */
export async function testDatabaseUrl(): Promise<string | undefined> {
  if (TEST_ENGINE === 'sqlite') return undefined;
  return await (await sharedPostgresCluster()).freshDatabase();
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
