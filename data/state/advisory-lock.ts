import pg from 'pg';

/** A session advisory lock held on a connection of its own: released by `release`, or by PostgreSQL when the holder's connection ends. */
export interface HeldAdvisoryLock {
  /** Throws unless the connection that holds the lock is still up and still holds it. */
  confirmHeld(): Promise<void>;
  release(): Promise<void>;
}

// A host that dies without closing its connection (power lost, network cut) keeps its lock until the server notices
// the connection is gone: these ask the server to probe an idle connection after 30 s, every 10 s, 3 times.
const KEEPALIVE_SETTINGS = 'SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3';

/**
 * Takes PostgreSQL's session advisory lock `key` without waiting: the lock, or null when another session holds it.
 * A process killed with the lock held loses its connection, so the lock is free again at once (or, for a host gone
 * silent, within the keepalive probes above): no lease to expire and no stale holder to take over.
 */
export async function tryAdvisoryLock(url: string, key: number): Promise<HeldAdvisoryLock | null> {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  let lost: unknown = null;
  // A dropped connection emits here; without a listener it would end the process. The lock went with it.
  client.on('error', (error) => {
    lost = error;
  });
  await client.connect();
  try {
    await client.query(KEEPALIVE_SETTINGS);
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
    if (rows[0]?.locked !== true) {
      await client.end();
      return null;
    }
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    async confirmHeld() {
      if (lost !== null) throw new Error(`the connection holding advisory lock ${key} was lost: ${String(lost)}`, { cause: lost });
      const { rows } = await client.query<{ held: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
           AND ((classid::bigint << 32) | objid::bigint) = $1) AS held`,
        [key],
      );
      if (rows[0]?.held !== true) throw new Error(`advisory lock ${key} is no longer held`);
    },
    async release() {
      // Ending the session releases its locks; an already lost connection has nothing left to release.
      await client.end().catch(() => {});
    },
  };
}
