import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStateDb } from './db.ts';
import { processAlive, registerInstance, releaseGoneOwners, retireInstance } from './instances.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');

test('a start releases what gone processes of its machine held, and keeps what live ones and other machines hold', () => {
  const state = openStateDb(':memory:');
  const gone = registerInstance(state, NOW, { host: 'here', pid: 101, processStart: '500' });
  const reused = registerInstance(state, NOW, { host: 'here', pid: 102, processStart: '600' });
  const live = registerInstance(state, NOW, { host: 'here', pid: 103, processStart: '700' });
  const elsewhere = registerInstance(state, NOW, { host: 'there', pid: 101, processStart: '500' });
  const holds = (owner: string | null, key: string) => {
    state.run("INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, run_token, started_at, expires_at, owner) VALUES ('ip:x', ?, 'h', 'running', 't', ?, ?, ?)", key, NOW.toISOString(), NOW.toISOString(), owner);
    state.run("INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at, owner) VALUES (?, 'ip:x', 'w', ?, ?)", key, NOW.toISOString(), owner);
  };
  holds(gone.id, 'gone');
  holds(reused.id, 'reused');
  holds(live.id, 'live');
  holds(elsewhere.id, 'elsewhere');
  holds('inst_unregistered', 'unregistered');
  holds(null, 'unrecorded');
  state.run("INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, started_at, expires_at, owner) VALUES ('ip:x', 'done', 'h', 'done', ?, ?, ?)", NOW.toISOString(), NOW.toISOString(), gone.id);

  const self = registerInstance(state, NOW, { host: 'here', pid: 200, processStart: '900' });
  // pid 101 has ended; pid 102 now belongs to a process started at another time; pid 103 runs on.
  const table: Record<number, string> = { 102: '650', 103: '700', 200: '900' };
  const released = releaseGoneOwners(state, self, (pid, start) => table[pid] !== undefined && table[pid] === start);
  assert.deepEqual(released, { instances: 2, idempotencyKeys: 3, reservations: 3 });
  const left = (table: string, column: string) => state.all<{ key: string }>(`SELECT ${column} AS key FROM ${table} ORDER BY 1`).map((row) => row.key);
  assert.deepEqual(left('idempotency_keys', 'idempotency_key'), ['done', 'elsewhere', 'live', 'unrecorded'], 'a finished reply is kept for its retries');
  assert.deepEqual(left('usage_reservations', 'reservation_id'), ['elsewhere', 'live', 'unrecorded']);

  holds(self.id, 'mine');
  retireInstance(state, self);
  assert.deepEqual(left('usage_reservations', 'reservation_id'), ['elsewhere', 'live', 'unrecorded'], 'a clean stop leaves nothing of its own');
  assert.equal(state.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_instances WHERE instance_id = ?', self.id)!.n, 0);
});

test('the kernel is asked whether a process still runs, and since when', () => {
  const self = registerInstance(openStateDb(':memory:'), NOW);
  assert.equal(processAlive(process.pid, self.processStart), true);
  assert.equal(processAlive(process.pid, 'another start'), self.processStart === null, 'a pid given to another process is not this one');
  assert.equal(processAlive(2 ** 22 + 1, null), false, 'a pid above the kernel\'s limit runs nothing');
});
