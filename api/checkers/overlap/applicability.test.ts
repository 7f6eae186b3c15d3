import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applicability } from './applicability.ts';
import { tokenise } from './tokens.ts';

const check = (text: string) => applicability(text, tokenise(text));
const PROSE = 'The council has decided to replace the bridge over the river because the old one is no longer safe for heavy vehicles. ';

test('running English prose of enough words is checked', () => {
  assert.deepEqual(check(PROSE.repeat(5)), { applicable: true });
});

test('under 80 words abstains as too short, saying how many words there were', () => {
  const result = check(PROSE.repeat(3));
  assert.equal(result.applicable, false);
  assert.equal(result.applicable === false && result.outcome, 'abstained_too_short');
  assert.match(result.applicable === false ? result.reason : '', /has 66 words; .* at least 80/);
});

test('a table, a form and code abstain as not prose', () => {
  const table = Array.from({ length: 40 }, (_, i) => `Item ${i}\tBolts M${i}\t${i * 3} units\t$${i * 12}.50`).join('\n');
  const form = Array.from({ length: 30 }, (_, i) => `Field ${i} name: ________  Date: __/__/____  Signature: ________`).join('\n');
  const code = Array.from({ length: 30 }, (_, i) => `const value${i} = compute(input${i}, options.${i});`).join('\n');
  for (const text of [table, form, code]) {
    const result = check(text);
    assert.equal(result.applicable === false && result.outcome, 'abstained_not_prose', text.slice(0, 40));
  }
});

test('prose in another language abstains as not English prose', () => {
  const french = 'Le conseil a décidé de remplacer le pont sur la rivière parce que l\'ancien ne supporte plus les camions lourds. ';
  const result = check(french.repeat(6));
  assert.equal(result.applicable === false && result.outcome, 'abstained_not_prose');
});

test('prose without full stops and a paragraph wrapped into short lines are still prose; a list of short items is not', () => {
  const unpunctuated = Array.from({ length: 6 }, () => 'we review the risks posed to the company each year and we report them to the board with the steps we take').join('\n');
  assert.deepEqual(check(unpunctuated), { applicable: true });
  const wrapped = PROSE.repeat(5).replace(/((?:\S+\s+){9})/g, '$1\n');
  assert.deepEqual(check(wrapped), { applicable: true });
  const list = Array.from({ length: 40 }, (_, i) => `• Supply of the item ${i}`).join('\n');
  assert.equal(check(list).applicable, false);
});
