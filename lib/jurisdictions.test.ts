import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, localDate, timeZoneOf, withinScope, zonedTimeToUtc } from './jurisdictions.ts';

test('each jurisdiction is judged in its own time zone; the country alone means Sydney', () => {
  assert.equal(timeZoneOf('AU'), 'Australia/Sydney');
  assert.equal(timeZoneOf('AU-WA'), 'Australia/Perth');
  assert.equal(timeZoneOf('AU-NT'), 'Australia/Darwin');
  assert.equal(timeZoneOf('NZ'), 'Pacific/Auckland');
});

test('one instant falls on different days in Perth, Adelaide, Darwin, Sydney and Auckland', () => {
  // 14:45 UTC on 24 Sep 2026: 22:45 in Perth (24th), 00:15 in Adelaide (25th, +09:30), 00:15 in Darwin,
  // 00:45 in Sydney, 02:45 in Auckland.
  const instant = new Date('2026-09-24T14:45:00Z');
  assert.equal(localDate(instant, 'Australia/Perth'), '2026-09-24');
  assert.equal(localDate(instant, 'Australia/Adelaide'), '2026-09-25');
  assert.equal(localDate(instant, 'Australia/Darwin'), '2026-09-25');
  assert.equal(localDate(instant, 'Australia/Sydney'), '2026-09-25');
  assert.equal(localDate(instant, 'Pacific/Auckland'), '2026-09-25');
});

test('wall-clock times convert to UTC across daylight-saving edges', () => {
  // Canberra 10:00 on 28 Sep 2026 is AEST (+10); on 5 Oct 2026, after the 4 Oct change, AEDT (+11).
  assert.equal(zonedTimeToUtc('2026-09-28', '10:00', 'Australia/Sydney').toISOString(), '2026-09-28T00:00:00.000Z');
  assert.equal(zonedTimeToUtc('2026-10-05', '10:00', 'Australia/Sydney').toISOString(), '2026-10-04T23:00:00.000Z');
  // The change day itself: 01:30 is before the jump (+10), 03:30 after it (+11).
  assert.equal(zonedTimeToUtc('2026-10-04', '01:30', 'Australia/Sydney').toISOString(), '2026-10-03T15:30:00.000Z');
  assert.equal(zonedTimeToUtc('2026-10-04', '03:30', 'Australia/Sydney').toISOString(), '2026-10-03T16:30:00.000Z');
  // Auckland moves to +13 on 27 Sep 2026; Adelaide is +10:30 in summer; Perth and Darwin never change.
  assert.equal(zonedTimeToUtc('2026-09-28', '16:00', 'Pacific/Auckland').toISOString(), '2026-09-28T03:00:00.000Z');
  assert.equal(zonedTimeToUtc('2026-09-26', '16:00', 'Pacific/Auckland').toISOString(), '2026-09-26T04:00:00.000Z');
  assert.equal(zonedTimeToUtc('2026-12-01', '12:00', 'Australia/Adelaide').toISOString(), '2026-12-01T01:30:00.000Z');
  assert.equal(zonedTimeToUtc('2026-12-01', '12:00', 'Australia/Perth').toISOString(), '2026-12-01T04:00:00.000Z');
  assert.equal(zonedTimeToUtc('2026-12-01', '12:00', 'Australia/Darwin').toISOString(), '2026-12-01T02:30:00.000Z');
});

test('scope: AU covers every state, a state only itself, NZ only NZ', () => {
  assert.ok(withinScope('AU-WA', 'AU') && withinScope('AU', 'AU'));
  assert.ok(!withinScope('NZ', 'AU'));
  assert.ok(withinScope('AU-WA', 'AU-WA') && !withinScope('AU', 'AU-WA'));
  assert.equal(addDays('2026-12-31', 1), '2027-01-01');
});
