import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS_PER_ACCOUNT } from '../api/accounts/keys.ts';
import { openPostgresState } from '../data/state/postgres.ts';
import { signInAs } from './helpers/org-app.ts';
import { postgresBinaries, startPostgresCluster, type PostgresCluster } from './helpers/postgres-cluster.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { tempDir } from './helpers/temp-dir.ts';

// Two real API processes on one PostgreSQL, each with a data folder of its own: whatever they agree on, they agree on
// through the shared state store. Run in both passes of `npm test`, since it needs PostgreSQL whatever the pass.
const NO_POSTGRES = postgresBinaries() ? false : 'PostgreSQL server binaries are not installed (/usr/lib/postgresql/*/bin)';

/** A paragraph of ordinary prose, distinct per call so that no call is answered from another's stored result. */
const prose = (n: number) =>
  `Report ${n}. The council resurfaced the northern road this spring after residents asked for safer crossings near the school. ` +
  'Crews worked at night to keep traffic moving, and the depot kept a record of every delay so the next contract can plan for it. '.repeat(6);

describe('two API instances on one PostgreSQL', { skip: NO_POSTGRES, timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let instances: ServerProcess[] = [];
  let databaseUrl: string;

  before(async () => {
    cluster = await startPostgresCluster();
    databaseUrl = await cluster.freshDatabase();
    const env = {
      DATABASE_URL: databaseUrl,
      SVC_WEEKLY_CAP_ANONYMOUS: '3',
      SVC_BURST_CAPACITY: '1000',
      SVC_BURST_REFILL_PER_MIN: '100000',
    };
    instances = await Promise.all([1, 2].map(async (n) => await startServer({ dataDir: await tempDir(`instance-${n}-`), env })));
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await cluster.stop();
  });

  /**
   * The rate header's remainder on `instance`, asked until it reads `expected` or 5 s pass: an instance reuses the
   * figures it read for up to a second (api/usage/meter.ts), so another instance's spending shows that late.
   */
  const remainingOn = async (instance: ServerProcess, expected: string): Promise<string | null> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const remaining = (await fetch(`${instance.url}/v1/pricing`)).headers.get('ratelimit-remaining');
      if (remaining === expected || Date.now() > deadline) return remaining;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const detect = (instance: ServerProcess, text: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.url}/v1/detect-ai-text`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ text }) });

  it('an Idempotency-Key used on one instance replays on the other, counted once', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const first = await detect(a, prose(0), { 'idempotency-key': 'two-instances-1' });
    assert.equal(first.status, 200, await first.clone().text());
    const retry = await detect(b, prose(0), { 'idempotency-key': 'two-instances-1' });
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), await first.json(), 'the same reply');
    for (const instance of instances) assert.equal(await remainingOn(instance, '2'), '2', 'one unit of three spent, on either instance');
  });

  it('the weekly allowance is exact across both: 50 calls at once for 2 units left, spread over the instances, give exactly 2', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => detect(instances[i % 2]!, prose(i + 1))));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 200).length, 2, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((status) => status === 429).length, 48);
    for (const instance of instances) assert.equal(await remainingOn(instance, '0'), '0', 'each instance sees the allowance spent');
  });

  it(`an account's key cap holds across both: ${KEYS_PER_ACCOUNT * 2} keys asked at once over the two instances give exactly ${KEYS_PER_ACCOUNT}`, async () => {
    const state = await openPostgresState(databaseUrl, { migrate: false });
    const cookie = await signInAs(state, new Date(), 'two-instances@example.com');
    await state.close();
    const replies = await Promise.all(Array.from({ length: KEYS_PER_ACCOUNT * 2 }, (_, i) => {
      const instance = instances[i % 2]!;
      return fetch(`${instance.url}/v1/keys`, { method: 'POST', headers: { cookie, origin: instance.url, 'content-type': 'application/json' }, body: '{}' });
    }));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 201).length, KEYS_PER_ACCOUNT, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((status) => status === 409).length, KEYS_PER_ACCOUNT);
  });
});
