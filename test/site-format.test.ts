// The site's formatter: the examples of issue 17 §4, each of which the earlier formatting got wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytes, day, instant, instantIn, money, month, monthName, plural, publishedValue, quarter } from '../site/lib/format.ts';

test('money reads $1,234,567 for AUD and NZ$1,234,567 for NZD, in whole dollars', () => {
  assert.equal(money(1234567, 'AUD'), '$1,234,567');
  assert.equal(money('1178000', 'AUD'), '$1,178,000');
  assert.equal(money(1234567, 'NZD'), 'NZ$1,234,567');
  assert.equal(money(137571795.74, 'AUD'), '$137,571,796');
  assert.equal(money(-2500, 'NZD'), '-NZ$2,500');
  assert.match(money(1000, 'USD'), /^USD\s1,000$/);
  assert.equal(money(null, 'AUD'), '—');
});

test('money keeps cents only on small amounts that have them', () => {
  assert.equal(money(4.5, 'AUD'), '$4.50');
  assert.equal(money(19800, 'AUD'), '$19,800');
  assert.equal(money(12, 'NZD'), 'NZ$12');
});

test('a published value that is only a code and an amount reads as money; other wording is kept as published', () => {
  assert.equal(publishedValue('AUD 19800.00'), '$19,800');
  assert.equal(publishedValue('AUD 137571795.74'), '$137,571,796');
  assert.equal(publishedValue('NZD 1250000'), 'NZ$1,250,000');
  assert.equal(publishedValue('$1178000'), '$1,178,000');
  assert.equal(publishedValue('$50,000 - $100,000'), '$50,000 - $100,000');
  assert.equal(publishedValue('Up to $2M over three years'), 'Up to $2M over three years');
  assert.equal(publishedValue(null), '—');
  assert.equal(publishedValue('From $400,000.00 to $1,200,000.00'), 'From $400,000 to $1,200,000', 'amounts in words read as money is written elsewhere');
  assert.equal(publishedValue('$480,000.00 (inc GST)'), '$480,000 (inc GST)');
  assert.equal(publishedValue('About NZ$95,000.50 a year'), 'About NZ$95,001 a year');
  assert.equal(publishedValue('Between $1.5 million and $2m'), 'Between $1.5 million and $2m', 'scale words are left as written');
});

test('every month reads in three letters: Jun and Jul, never June, July or Sept', () => {
  assert.equal(day('2027-06-30'), '30 Jun 2027');
  assert.equal(day('2026-07-01'), '1 Jul 2026');
  assert.equal(month('2026-06'), 'Jun 2026');
  assert.equal(monthName('2026-07'), 'Jul');
  assert.equal(quarter('2026Q3'), 'Jul–Sep 2026');
  assert.equal(instant('2026-06-25T01:00:00Z', 'AU-NSW'), '25 Jun 2026, 11:00\u202fam AEST');
});

test('dates read 25 Sep 2026, never Sept', () => {
  assert.equal(day('2026-09-25'), '25 Sep 2026');
  assert.equal(day('2026-10-01'), '1 Oct 2026');
  assert.equal(month('2026-09'), 'Sep 2026');
  assert.equal(monthName('2026-09'), 'Sep');
  assert.equal(day(null), '—');
});

test('times read in the buyer\'s time zone: NZ times in NZ time', () => {
  const at = '2026-09-25T01:00:00Z';
  assert.equal(instant(at, 'AU-NSW'), '25 Sep 2026, 11:00\u202fam AEST');
  assert.equal(instant(at, 'NZ'), '25 Sep 2026, 1:00\u202fpm NZST');
  assert.equal(instant(at, 'AU-WA'), '25 Sep 2026, 9:00\u202fam AWST');
  assert.equal(instant(at), '25 Sep 2026, 11:00\u202fam AEST');
});

test('counts carry their plural: 1 procurement, 2 procurements', () => {
  assert.equal(plural(1, 'procurement'), '1 procurement');
  assert.equal(plural(2, 'procurement'), '2 procurements');
  assert.equal(plural(1204, 'contract'), '1,204 contracts');
  assert.equal(plural(0, 'grant round'), '0 grant rounds');
  assert.equal(plural(1, 'supplier holds', 'different suppliers hold'), '1 supplier holds');
});

test('quarters read as the months they span', () => {
  assert.equal(quarter('2026Q3'), 'Jul–Sep 2026');
  assert.equal(quarter('2027Q1'), 'Jan–Mar 2027');
});

test('file sizes read in bytes, KB or MB, with a tenth of a MB below 10 MB', () => {
  assert.equal(bytes(820), '820 bytes');
  assert.equal(bytes(1), '1 byte');
  assert.equal(bytes(14 * 1024 + 100), '14 KB');
  assert.equal(bytes(2.44 * 1024 * 1024), '2.4 MB');
  assert.equal(bytes(25 * 1024 * 1024), '25 MB');
});

test('a time in a time zone the API names reads as wall-clock time there, across daylight saving', () => {
  assert.equal(instantIn('2026-11-20T06:00:00Z', 'Australia/Sydney'), '20 Nov 2026, 5:00\u202fpm AEDT');
  assert.equal(instantIn('2026-11-20T04:00:00Z', 'Pacific/Auckland'), '20 Nov 2026, 5:00\u202fpm NZDT');
  assert.equal(instantIn('2026-09-25T01:00:00Z', 'Australia/Brisbane'), '25 Sep 2026, 11:00\u202fam AEST');
});
