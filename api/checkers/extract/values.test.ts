import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findAmounts, findDates, findIdentifier, readBoolean } from './values.ts';

const amounts = (text: string) => findAmounts(text).map((found) => found.value);
const dates = (text: string, country?: string) => findDates(text, country).map((found) => found.value);

test('amounts: currency signs, thousands, debits in brackets, minus or DR; a bare whole number is not money', () => {
  assert.deepEqual(amounts('Total $1,234.50'), [1234.5]);
  assert.deepEqual(amounts('AUD 1,234 and 99.95'), [1234, 99.95]);
  assert.deepEqual(amounts('Fee (45.00) then -12.10 then 80.00 DR then 5.00 CR'), [-45, -12.1, -80, 5]);
  assert.deepEqual(amounts('Qty 12, invoice 20417'), []);
});

test('dates: the ways Australian documents write them, day-first numbers unless the country writes month first', () => {
  assert.deepEqual(dates('3 May 2026, 03-May-2026, 3rd of May 2026, May 3, 2026, 2026-05-03'), ['2026-05-03', '2026-05-03', '2026-05-03', '2026-05-03', '2026-05-03']);
  assert.deepEqual(dates('03/05/2026 to 4.5.26'), ['2026-05-03', '2026-05-04']);
  assert.deepEqual(dates('03/05/2026', 'US'), ['2026-03-05']);
  assert.deepEqual(dates('6 J une 2025'), ['2025-06-06']);
  assert.deepEqual(dates('31/02/2026 is no date'), []);
});

test('dates: a capital J that OCR read as a bar or bracket, or dropped, still names its month between a day and a year', () => {
  assert.deepEqual(dates('Due date: 6 | une 2025'), ['2025-06-06']);
  assert.deepEqual(dates('Statement period: 1 anuary 2026 to 30 J anuary 2026'), ['2026-01-01', '2026-01-30']);
  assert.deepEqual(dates('01+ an-2026 then 06-) an-2026 then 02+] an-2026'), ['2026-01-01', '2026-01-06', '2026-01-02']);
  assert.deepEqual(dates('4 ) uly 2024, 9 luly 2024'), ['2024-07-04', '2024-07-09']);
  assert.deepEqual(dates('an 3 of 12, a plan for 2026'), []);
});

test('checkboxes before a label and written answers after it', () => {
  assert.equal(readBoolean('☑', ' Paid'), true);
  assert.equal(readBoolean('[x]', ''), true);
  assert.equal(readBoolean('☐', ''), false);
  assert.equal(readBoolean('[ ]', ''), false);
  assert.equal(readBoolean('', ': Yes'), true);
  assert.equal(readBoolean('', ' - no'), false);
  assert.equal(readBoolean('', ' maybe later'), null);
});

test('identifiers by shape, written the way the register writes them', () => {
  assert.equal(findIdentifier('ABN: 51824753556', 'abn')?.value, '51 824 753 556');
  assert.equal(findIdentifier('ACN 004 085 616', 'acn')?.value, '004 085 616');
  assert.equal(findIdentifier('BSB 062 000', 'bsb')?.value, '062-000');
  assert.equal(findIdentifier('No: 1234 5678', 'account_number')?.value, '12345678');
  assert.equal(findIdentifier(': INV-20417.', 'reference')?.value, 'INV-20417');
});
