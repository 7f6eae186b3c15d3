// A tender's closing as an .ics event: the buyer's wall-clock time with its zone defined, or the closing day.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closingCalendar } from '../site/lib/calendar-file.ts';

const base = {
  key: '0123456789abcdef0123456789abcdef', title: 'Cleaning services, Sydney; central offices', buyer: 'Transport for NSW', reference: 'RFT-2026-17',
  closingDate: '2026-10-14', url: 'https://tenders.example.test/tenders/0123456789abcdef0123456789abcdef/', stamp: '2026-09-25T01:00:00.000Z',
  closingWords: '14 Oct 2026, 11:59 pm AEDT',
};

const unfolded = (ics: string) => ics.replace(/\r\n /g, '');

test('a closing time is the buyer\'s wall-clock time in its zone, defined for that year with both its changes', () => {
  const ics = closingCalendar({ ...base, closingAt: '2026-10-14T12:59:00.000Z', timeZone: 'Australia/Sydney' });
  assert.ok(ics.endsWith('\r\n') && !/[^\r]\n/.test(ics), 'every line ends CRLF');
  assert.ok(ics.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75), 'lines are folded at 75 octets');
  const text = unfolded(ics);
  assert.match(text, /\r\nDTSTART;TZID=Australia\/Sydney:20261014T235900\r\n/);
  assert.match(text, /BEGIN:VTIMEZONE\r\nTZID:Australia\/Sydney\r\nBEGIN:STANDARD\r\nDTSTART:20260405T030000\r\nTZOFFSETFROM:\+1100\r\nTZOFFSETTO:\+1000\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:20261004T020000\r\nTZOFFSETFROM:\+1000\r\nTZOFFSETTO:\+1100\r\nEND:DAYLIGHT/);
  assert.match(text, /SUMMARY:Tender closes: Cleaning services\\, Sydney\\; central offices\r\n/, 'commas and semicolons escaped');
  assert.match(text, /UID:0123456789abcdef0123456789abcdef@tenders\.example\.test\r\n/);
  assert.match(text, /DTSTAMP:20260925T010000Z\r\n/);
  assert.match(text, /TRIGGER:-P2D/);
  assert.match(text, /DESCRIPTION:Closes 14 Oct 2026\\, 11:59 pm AEDT \(the buyer's time\)\.\\nBuyer: Transport for NSW\.\\nReference: RFT-2026-17\.\\nhttps:/);
});

test('Adelaide changes on the half hour; Brisbane keeps one offset all year', () => {
  const adelaide = unfolded(closingCalendar({ ...base, closingAt: '2026-10-14T13:29:00.000Z', timeZone: 'Australia/Adelaide' }));
  assert.match(adelaide, /DTSTART;TZID=Australia\/Adelaide:20261014T235900/);
  assert.match(adelaide, /BEGIN:DAYLIGHT\r\nDTSTART:20261004T020000\r\nTZOFFSETFROM:\+0930\r\nTZOFFSETTO:\+1030/);
  const brisbane = unfolded(closingCalendar({ ...base, closingAt: '2026-10-14T13:59:00.000Z', timeZone: 'Australia/Brisbane' }));
  assert.match(brisbane, /DTSTART;TZID=Australia\/Brisbane:20261014T235900/);
  assert.match(brisbane, /BEGIN:VTIMEZONE\r\nTZID:Australia\/Brisbane\r\nBEGIN:STANDARD\r\nDTSTART:20260101T000000\r\nTZOFFSETFROM:\+1000\r\nTZOFFSETTO:\+1000\r\nEND:STANDARD\r\nEND:VTIMEZONE/);
});

test('a tender publishing only its closing day is an all-day event that day', () => {
  const text = unfolded(closingCalendar({ ...base, closingAt: undefined, timeZone: 'Pacific/Auckland', closingWords: '14 Oct 2026 (no time published)' }));
  assert.match(text, /DTSTART;VALUE=DATE:20261014\r\nDTEND;VALUE=DATE:20261015\r\n/);
  assert.doesNotMatch(text, /VTIMEZONE/);
});
