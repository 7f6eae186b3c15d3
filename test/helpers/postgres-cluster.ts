import { after } from 'node:test';
import { openStateDb, type StateDb } from '../../data/state/db.ts';
import { openPostgresState, type PostgresStateOptions } from '../../data/state/postgres.ts';
import { launchPostgresCluster, type PostgresCluster } from './postgres-server.ts';

export { postgresBinaries, type PostgresCluster } from './postgres-server.ts';

let shared: Promise<PostgresCluster> | undefined;
const started: Promise<PostgresCluster>[] = [];
// Registered at the file's top level when a test file imports this module (inside a test it would run when that
// test ended): every cluster the file started is stopped and removed once its tests are done.
after(() => Promise.all(started.map(async (cluster) => (await cluster.catch(() => null))?.stop())));

/** The one cluster of this test file, started on first use. */
export function sharedPostgresCluster(): Promise<PostgresCluster> {
  shared ??= startPostgresCluster();
  return shared;
}

/** A cluster of its own (for a test that stops its server), stopped with the file's others if the test does not. */
export function startPostgresCluster(): Promise<PostgresCluster> {
  const cluster = launchPostgresCluster();
  started.push(cluster);
  return cluster;
}

/** The engine the suite runs on: `STATE_ENGINE=postgres` selects PostgreSQL, anything else SQLite. */
export function testStateEngine(): 'sqlite' | 'postgres' {
  return process.env.STATE_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A new, empty, migrated state store on the suite's engine: an in-memory SQLite store, or under
 * `STATE_ENGINE=postgres` a fresh database on this file's throwaway cluster. The caller closes it.
 */
export async function openTestState(engine = testStateEngine(), options?: PostgresStateOptions): Promise<StateDb> {
  if (engine === 'sqlite') return openStateDb(':memory:');
  const cluster = await sharedPostgresCluster();
  return openPostgresState(await cluster.freshDatabase(), options);
}
