// The pieces behind the site's charts and data tables that run without a page: the CSV a table downloads
// from its JSON twin (RFC 4180), how a sorted column compares its cells, and the per-week and per-month
// counts the state and grants pages chart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closingByMonth, closingByWeek } from '../site/lib/chart-series.ts';
import { rowsAt, toCsv } from '../site/lib/csv.ts';
import { dayMonth } from '../site/lib/format.ts';
import { compareKeys } from '../site/lib/table-sort.ts';

test('a table\'s CSV holds its JSON rows, every field any row has (its heading in words), quoted as RFC 4180 says', () => {
  const rows = [
    { title: 'Cleaning, "deep" and daily', value_amount: 19800, tags: ['a', 'b'] },
    { title: 'Line one\nline two', window: { from: '2026-09-25' }, value_amount: null },
  ];
  assert.equal(toCsv(rows), [
    'Title,Value amount,Tags,Window',
    '"Cleaning, ""deep"" and daily",19800,a; b,',
    '"Line one\nline two",,,"{""from"":""2026-09-25""}"',
    '',
  ].join('\r\n'));
});

test('a table\'s rows are found in its JSON twin by a dotted path; an object alone is one row', () => {
  const twin = { expiring: { rows: [{ a: 1 }, { a: 2 }] }, buyer: { name: 'X' } };
  assert.deepEqual(rowsAt(twin, 'expiring.rows'), [{ a: 1 }, { a: 2 }]);
  assert.deepEqual(rowsAt(twin, 'buyer'), [{ name: 'X' }]);
  assert.throws(() => rowsAt(twin, 'planned.rows'), /no rows at planned\.rows/);
});

test('a sorted column orders numbers and dates by value, words as words, and empty cells last either way', () => {
  const sorted = (keys: string[], ascending: boolean) => [...keys].sort((a, b) => compareKeys(a, b, ascending));
  // As text, "1234567" sorts before "987"; as values it does not.
  assert.deepEqual(sorted(['1234567', '987', '', '19800.5'], true), ['987', '19800.5', '1234567', '']);
  assert.deepEqual(sorted(['1234567', '987', '', '19800.5'], false), ['1234567', '19800.5', '987', '']);
  assert.deepEqual(sorted(['2026-10-01', '2025-12-31', '2026-09-25'], true), ['2025-12-31', '2026-09-25', '2026-10-01']);
  assert.deepEqual(sorted(['victoria', 'Tasmania', 'ACT'], true), ['ACT', 'Tasmania', 'victoria']);
});

test('tenders closing per week count each closing day in its week from today, every week present', () => {
  const weeks = closingByWeek(['2026-09-25', '2026-10-01', '2026-10-02', '2026-11-19', '2026-11-20', '2026-09-24'], '2026-09-25', 8);
  assert.deepEqual(weeks.map((w) => w.count), [2, 1, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual([weeks[0]?.from, weeks[0]?.to, weeks[7]?.to], ['2026-09-25', '2026-10-01', '2026-11-19']);
  assert.equal(dayMonth(weeks[1]!.from), '2 Oct');
});

test('rounds closing per month count each closing day in its month from this month, none before today', () => {
  const months = closingByMonth(['2026-09-24', '2026-09-30', '2026-10-31', '2027-02-28', '2027-03-01'], '2026-09-25', 6);
  assert.deepEqual(months.map((m) => [m.key, m.count]), [['2026-09', 1], ['2026-10', 1], ['2026-11', 0], ['2026-12', 0], ['2027-01', 0], ['2027-02', 1]]);
  assert.deepEqual([months[5]?.from, months[5]?.to], ['2027-02-01', '2027-02-28']);
});
