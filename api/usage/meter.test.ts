import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMeter, weekOf } from './meter.ts';
import { openTestState } from '../../test/helpers/state.ts';

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
