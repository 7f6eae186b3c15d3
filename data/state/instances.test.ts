import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStateDb } from './db.ts';
import { processAlive, registerInstance, releaseGoneOwners, retireInstance } from './instances.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');

test('a start releases what gone processes of its machine held, and keeps what live ones and other machines hold', async () => {
  const state = await openStateDb(':memory:');
  const gone = await registerInstance(state, NOW, { host: 'here', pid: 101, processStart: '500' });
  const reused = await registerInstance(state, NOW, { host: 'here', pid: 102, processStart: '600' });
  const live = await registerInstance(state, NOW, { host: 'here', pid: 103, processStart: '700' });
  const elsewhere = await registerInstance(state, NOW, { host: 'there', pid: 101, processStart: '500' });
  const holds = async (owner: string | null, key: string) => {
    await state.run("INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, run_token, started_at, expires_at, owner) VALUES ('ip:x', ?, 'h', 'running', 't', ?, ?, ?)", key, NOW.toISOString(), NOW.toISOString(), owner);
    await state.run("INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at, owner) VALUES (?, 'ip:x', 'w', ?, ?)", key, NOW.toISOString(), owner);
  };
  await holds(gone.id, 'gone');
  await holds(reused.id, 'reused');
  await holds(live.id, 'live');
  await holds(elsewhere.id, 'elsewhere');
  await holds('inst_unregistered', 'unregistered');
  await holds(null, 'unrecorded');
  await state.run("INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, started_at, expires_at, owner) VALUES ('ip:x', 'done', 'h', 'done', ?, ?, ?)", NOW.toISOString(), NOW.toISOString(), gone.id);

  const self = await registerInstance(state, NOW, { host: 'here', pid: 200, processStart: '900' });
  // pid 101 has ended; pid 102 now belongs to a process started at another time; pid 103 runs on.
  const table: Record<number, string> = { 102: '650', 103: '700', 200: '900' };
  const released = await releaseGoneOwners(state, self, (pid, start) => table[pid] !== undefined && table[pid] === start);
  assert.deepEqual(released, { instances: 2, idempotencyKeys: 3, reservations: 3 });
  const left = async (table: string, column: string) => (await state.all<{ key: string }>(`SELECT ${column} AS key FROM ${table} ORDER BY 1`)).map((row) => row.key);
  assert.deepEqual(await left('idempotency_keys', 'idempotency_key'), ['done', 'elsewhere', 'live', 'unrecorded'], 'a finished reply is kept for its retries');
  assert.deepEqual(await left('usage_reservations', 'reservation_id'), ['elsewhere', 'live', 'unrecorded']);

  await holds(self.id, 'mine');
  await retireInstance(state, self);
  assert.deepEqual(await left('usage_reservations', 'reservation_id'), ['elsewhere', 'live', 'unrecorded'], 'a clean stop leaves nothing of its own');
  assert.equal((await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_instances WHERE instance_id = ?', self.id))!.n, 0);
});

test('the kernel is asked whether a process still runs, and since when', async () => {
  const self = await registerInstance(await openStateDb(':memory:'), NOW);
  assert.equal(processAlive(process.pid, self.processStart), true);
  assert.equal(processAlive(process.pid, 'another start'), self.processStart === null, 'a pid given to another process is not this one');
  assert.equal(processAlive(2 ** 22 + 1, null), false, 'a pid above the kernel\'s limit runs nothing');
});
