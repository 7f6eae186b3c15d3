import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMeter, weekOf } from './meter.ts';
import { openTestState } from '../../test/helpers/state.ts';
import type { StateDb } from '../../data/state/db.ts';

test('the week starts Monday 00:00 in Sydney, across both daylight-saving changes', () => {
  // Wednesday 10 June 2026, winter (UTC+10): the week began Monday 8 June 00:00 Sydney = Sunday 14:00 UTC.
  assert.deepEqual(weekOf(new Date('2026-06-10T02:00:00Z')), {
    start: new Date('2026-06-07T14:00:00Z'),
    resetAt: new Date('2026-06-14T14:00:00Z'),
  });
  // Sunday 13:59 UTC is still Sunday 23:59 in Sydney; a minute later the new week has begun.
  assert.equal(weekOf(new Date('2026-06-14T13:59:59Z')).start.toISOString(), '2026-06-07T14:00:00.000Z');
  assert.equal(weekOf(new Date('2026-06-14T14:00:00Z')).start.toISOString(), '2026-06-14T14:00:00.000Z');
  // Daylight saving starts Sunday 4 October 2026: that week began at +10 and the next begins at +11.
  assert.deepEqual(weekOf(new Date('2026-10-04T12:00:00Z')), {
    start: new Date('2026-09-27T14:00:00Z'),
    resetAt: new Date('2026-10-04T13:00:00Z'),
  });
  // Daylight saving ends Sunday 5 April 2026.
  assert.deepEqual(weekOf(new Date('2026-04-01T00:00:00Z')), {
    start: new Date('2026-03-29T13:00:00Z'),
    resetAt: new Date('2026-04-05T14:00:00Z'),
  });
});

test('reserve, commit and release keep used and remaining exact; a new week starts from zero', async () => {
  let clock = new Date('2026-06-10T02:00:00Z');
  const meter = createMeter({ state: await openTestState(), caps: { anonymous: 2 }, now: () => clock });
  const caller = { kind: 'anonymous' as const, ip: '203.0.113.9' };
  const first = await meter.reserve(caller);
  assert.ok(first.granted);
  assert.deepEqual(await meter.allowance(caller), { countedPer: 'ip', limit: 2, used: 0, remaining: 1, resetAt: new Date('2026-06-14T14:00:00Z') });
  const second = await meter.reserve(caller);
  assert.ok(second.granted);
  assert.equal((await meter.reserve(caller)).granted, false, 'both units are held');
  await meter.release(first.reservation);
  await meter.commit(second.reservation);
  assert.deepEqual({ ...await meter.allowance(caller), resetAt: undefined }, { countedPer: 'ip', limit: 2, used: 1, remaining: 1, resetAt: undefined });

  clock = new Date('2026-06-14T14:00:00Z');
  assert.equal((await meter.allowance(caller)).used, 0);
  assert.equal((await meter.allowance(caller)).remaining, 2);
});

test('a unit held by a call that never settled frees itself after an hour', async () => {
  let clock = new Date('2026-06-10T02:00:00Z');
  const meter = createMeter({ state: await openTestState(), caps: { anonymous: 1 }, now: () => clock });
  const caller = { kind: 'anonymous' as const, ip: '203.0.113.9' };
  assert.ok((await meter.reserve(caller)).granted);
  assert.equal((await meter.reserve(caller)).granted, false);
  clock = new Date('2026-06-10T03:00:01Z');
  assert.ok((await meter.reserve(caller)).granted);
});

test('entering a new week prunes usage older than the kept weeks and keeps the recent ones', async () => {
  const state = await openTestState();
  let clock = new Date('2026-09-02T00:00:00Z');
  const meter = createMeter({ state, now: () => clock });
  const caller = { kind: 'anonymous' as const, ip: '203.0.113.9' };
  const spend = async () => {
    const outcome = await meter.reserve(caller);
    assert.ok(outcome.granted);
    await meter.commit(outcome.reservation);
  };
  await spend(); // week of 31 Aug
  clock = new Date('2026-10-01T00:00:00Z');
  await spend(); // week of 28 Sep, four weeks on
  const weeks = async () => (await state.all<{ week_start: string }>('SELECT week_start FROM usage_weeks ORDER BY week_start')).map((row) => row.week_start.slice(0, 10));
  assert.deepEqual(await weeks(), ['2026-08-30', '2026-09-27'], 'four weeks back is still kept (Monday 00:00 Sydney is Sunday in UTC)');
  clock = new Date('2026-10-08T00:00:00Z');
  assert.equal((await meter.allowance(caller)).used, 0, 'a new week starts from zero');
  assert.deepEqual(await weeks(), ['2026-09-27'], 'five weeks back is gone');
});

/** The store, counting the statements and transactions the meter sends it. */
function counting(state: StateDb) {
  const sent = { statements: 0, transactions: 0 };
  const counted: StateDb = {
    engine: state.engine,
    run: (sql, ...params) => (sent.statements++, state.run(sql, ...params)),
    get: (sql, ...params) => (sent.statements++, state.get(sql, ...params)),
    all: (sql, ...params) => (sent.statements++, state.all(sql, ...params)),
    transaction: (work, options) => (sent.transactions++, state.transaction(work, options)),
    close: () => state.close(),
  };
  return { counted, sent };
}

test('a granted reservation, its commit and a release are one statement each on PostgreSQL, with no transaction', async (t) => {
  const { counted, sent } = counting(await openTestState());
  const meter = createMeter({ state: counted, caps: { anonymous: 3 }, now: () => new Date('2026-06-10T02:00:00Z') });
  const caller = { kind: 'anonymous' as const, ip: '203.0.113.9' };
  meter.week();
  await meter.allowance(caller); // the week change's prune and the first figures read, before counting
  const sentBy = async (work: () => Promise<unknown>) => {
    const before = { ...sent };
    await work();
    return { statements: sent.statements - before.statements, transactions: sent.transactions - before.transactions };
  };
  const reserved = await meter.reserve(caller);
  assert.ok(reserved.granted);
  const another = await meter.reserve(caller);
  assert.ok(another.granted);
  const each = [
    await sentBy(async () => assert.ok((await meter.reserve(caller)).granted)),
    await sentBy(() => meter.commit(reserved.reservation)),
    await sentBy(() => meter.release(another.reservation)),
  ];
  // SQLite, in process, takes two statements in one transaction for each: no round trip to save.
  const expected = counted.engine === 'postgres' ? { statements: 1, transactions: 0 } : { statements: 2, transactions: 1 };
  assert.deepEqual(each, [expected, expected, expected]);
  t.diagnostic(`${counted.engine}: ${JSON.stringify(each)}`);
});

test('units past their hour are not counted as held, and a refusal frees them for the call that needs them', async () => {
  let clock = new Date('2026-06-10T02:00:00Z');
  const state = await openTestState();
  const meter = createMeter({ state, caps: { anonymous: 3 }, now: () => clock });
  const caller = { kind: 'anonymous' as const, ip: '203.0.113.9' };
  assert.ok((await meter.reserve(caller)).granted);
  clock = new Date('2026-06-10T02:30:00Z');
  assert.ok((await meter.reserve(caller)).granted);
  const held = await meter.reserve(caller);
  assert.ok(held.granted);
  clock = new Date('2026-06-10T03:00:01Z');
  await sleep(1_100); // past the meter's reuse of figures it read
  assert.equal((await meter.allowance(caller)).remaining, 1, 'the first unit outlived its hour');
  const fourth = await meter.reserve(caller);
  assert.ok(fourth.granted, 'the expired unit was freed for this call');
  assert.equal((await meter.reserve(caller)).granted, false);
  const week = await state.get<{ used: number; held: number }>('SELECT used, held FROM usage_weeks');
  assert.deepEqual({ ...week }, { used: 0, held: 3 });
  await meter.release(held.reservation);
  await meter.release(held.reservation);
  await meter.commit(fourth.reservation);
  assert.deepEqual({ ...await state.get<{ used: number; held: number }>('SELECT used, held FROM usage_weeks') }, { used: 1, held: 1 }, 'a second release frees nothing');
});

test('a key joining an account moves its held units with its count, and they settle on the account', async () => {
  const state = await openTestState();
  const meter = createMeter({ state, caps: { identified: 3 }, now: () => new Date('2026-06-10T02:00:00Z') });
  const key = { kind: 'key' as const, ip: '203.0.113.9', keyId: 'key_1', accountId: null, scope: 'api' as const };
  const spent = await meter.reserve(key);
  assert.ok(spent.granted);
  await meter.commit(spent.reservation);
  const inFlight = await meter.reserve(key);
  assert.ok(inFlight.granted);
  await meter.moveKeyToAccount('key_1', 'acct_1');
  const account = { ...key, accountId: 'acct_1' };
  assert.deepEqual({ ...await meter.allowance(account), resetAt: undefined }, { countedPer: 'account', limit: 3, used: 1, remaining: 1, resetAt: undefined });
  await meter.commit(inFlight.reservation);
  const rows = await state.all<{ subject: string; used: number; held: number }>('SELECT subject, used, held FROM usage_weeks ORDER BY subject');
  assert.deepEqual(rows.map((row) => ({ ...row })), [{ subject: 'account:acct_1', used: 2, held: 0 }]);
});
