import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanText, parseDayMonthYear } from './text.ts';

test('portal date formats parse to an ISO date and a 24-hour time', () => {
  assert.deepEqual(parseDayMonthYear('28-Sep-2026 10:00 am (ACT Local Time)'), { date: '2026-09-28', time: '10:00' });
  assert.deepEqual(parseDayMonthYear('  29-Sep-2026 5:00 pm  '), { date: '2026-09-29', time: '17:00' });
  assert.deepEqual(parseDayMonthYear('12-Oct-2026 12:00 am'), { date: '2026-10-12', time: '00:00' });
  assert.deepEqual(parseDayMonthYear('2-Sep-2026'), { date: '2026-09-02', time: null });
  assert.deepEqual(parseDayMonthYear('Monday, 17 August 2026 4:00 PM +12:00'), { date: '2026-08-17', time: '16:00' });
  assert.deepEqual(parseDayMonthYear('15/10/2026'), { date: '2026-10-15', time: null });
  assert.equal(parseDayMonthYear('31-Feb-2026'), null);
  assert.equal(parseDayMonthYear('to be advised'), null);
  assert.equal(parseDayMonthYear(''), null);
});

test('whitespace, non-breaking spaces and empties are cleaned', () => {
  assert.equal(cleanText('  Road\u00a0 works \n\t stage 2 '), 'Road works stage 2');
  assert.equal(cleanText(' \u00a0 '), null);
  assert.equal(cleanText(undefined), null);
});
