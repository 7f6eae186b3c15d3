import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../../documents/types.ts';
import { readMt940 } from './mt940.ts';

const page = (text: string): PageText => ({ page: 1, width: 0, height: 0, source: 'text_layer', items: [], text, confidence: 1 });

test('an MT940 file is read by its tags: the first opening balance and date, the last closing balance and date', () => {
  const text = [
    ':20:STMT0001',
    ':25:DEUTDEFF/0012345678',
    ':28C:1/1',
    ':60F:D240301EUR120,50',
    ':61:2403020302C500,00NTRFNONREF',
    ':86:SALARY',
    ':62M:C240302EUR379,50',
    ':20:STMT0002',
    ':25:DEUTDEFF/0012345678',
    ':60M:C240302EUR379,50',
    ':61:2403050305D79,50NTRFNONREF',
    ':62F:C240305EUR300,',
  ].join('\n');
  const read = readMt940([page(text)])!;
  assert.equal(read.account_number.value, '0012345678');
  assert.equal(read.opening_balance.value, -120.5);
  assert.equal(read.closing_balance.value, 300);
  assert.equal(read.statement_period_start.value, '2024-03-01');
  assert.equal(read.statement_period_end.value, '2024-03-05');
});

test('a printed statement is no MT940 file', () => {
  assert.equal(readMt940([page('Statement period: 1 March 2024 to 31 March 2024\nOpening balance\t$120.50')]), null);
});
