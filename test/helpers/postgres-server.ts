import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, globSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresState } from '../../data/state/postgres.ts';

/**
 * A throwaway real PostgreSQL cluster: `initdb` in a temporary folder, the server on a free loopback port, both
 * removed by `stop` (or when the process exits). Debian's server binaries (/usr/lib/postgresql/<version>/bin) are used; the
 * server refuses to run as root, so under uid 0 it runs as the `postgres` user. Each test takes a fresh database
 * copied from a migrated template, which is much faster than migrating each one. Tests reach it through
 * postgres-cluster.ts, which stops every cluster a test file started; the bench, which must not load node:test
 * (it would print a test report), starts one here.
 */
export interface PostgresCluster {
  /** postgres://… of `database` on this cluster. */
  url(database: string): string;
  /** A new database, migrated and empty (or, with `{ migrated: false }`, without even the schema); its URL. */
  freshDatabase(options?: { migrated?: boolean }): Promise<string>;
  /** The server, for tests that stop it. */
  readonly server: ChildProcess;
  stop(): Promise<void>;
}

const TEMPLATE = 'state_template';
const SUPERUSER = 'postgres';

/** The newest Debian PostgreSQL bin folder, or null when the server is not installed. */
export function postgresBinaries(): string | null {
  const found = globSync('/usr/lib/postgresql/*/bin/initdb')
    .map((initdb) => join(initdb, '..'))
    .filter((bin) => existsSync(join(bin, 'postgres')))
    .sort((a, b) => versionOf(b) - versionOf(a));
  return found[0] ?? null;
}

function versionOf(bin: string): number {
  return Number(/postgresql\/(\d+)/.exec(bin)?.[1] ?? 0);
}

export interface PostgresClusterOptions {
  /** Server settings beyond the throwaway ones (`-c name=value`), e.g. a bench's `shared_preload_libraries`. */
  settings?: Record<string, string>;
}

/** Starts a cluster with its migrated template; the caller stops it. */
export async function launchPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin');
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  const asPostgres = serverUser();
  if (asPostgres) chownSync(dir, asPostgres.uid, asPostgres.gid);
  const data = join(dir, 'data');
  const command = (program: string, args: string[]): [string, string[]] =>
    asPostgres ? ['setpriv', [`--reuid=${asPostgres.uid}`, `--regid=${asPostgres.gid}`, '--init-groups', '--', join(bin, program), ...args]] : [join(bin, program), args];
  // C collation: text sorts in byte order, as SQLite's does. -N: no fsync, the cluster is thrown away.
  const [initdb, initArgs] = command('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '-N']);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const [postgres, serverArgs] = command('postgres', [
    '-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories=",
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300',
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ]);
  const server = spawn(postgres, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // If the test process ends without `stop` (an uncaught error), the server must not outlive it.
  const killOnExit = (): void => {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const url = (database: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  try {
    await waitUntilReady(url('postgres'), server, () => log);
    await admin(url('postgres'), `CREATE DATABASE ${TEMPLATE}`);
    await (await openPostgresState(url(TEMPLATE))).close();
  } catch (error) {
    killOnExit();
    throw error;
  }
  let databases = 0;
  return {
    url,
    server,
    async freshDatabase(options = {}) {
      const name = `state_test_${++databases}`;
      await admin(url('postgres'), `CREATE DATABASE ${name} TEMPLATE ${options.migrated === false ? 'template0' : TEMPLATE}`);
      return url(name);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // SIGINT: the "fast" shutdown, which ends open connections instead of waiting for them.
        server.kill('SIGINT');
        const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Under root, the `postgres` user's ids (initdb and the server refuse root); otherwise null, to run as ourselves. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string): number => Number(spawnSync('id', [flag, SUPERUSER], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, and there is no `postgres` user to run the server as');
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited with ${server.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections in 30 s (${(error as Error).message}):\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
