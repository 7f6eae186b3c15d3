import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAND_RULE, decideBand } from './band.ts';
import type { Signal } from './signal.ts';
import { pdfSignal, pdfSignalCatalogue } from './pdf-signals.ts';

const structureHigh: Signal = { code: 'made_up_structure', group: 'structure', severity: 'high', title: 't', found: 'f', where: {} };

test('structure alone never makes high, however severe: it counts as medium at most', () => {
  const decision = decideBand([structureHigh, pdfSignal('incremental_update', 'x', {}), pdfSignal('linearized', 'x', {})], 'full', null);
  assert.equal(decision.band, 'medium');
  assert.match(decision.rule, /Applied: medium: 1 medium signal\(s\): made_up_structure/);
});

test('incremental saves, signatures and object streams alone are low', () => {
  const decision = decideBand([pdfSignal('incremental_update', 'x', {}), pdfSignal('digital_signature', 'x', {}), pdfSignal('object_streams', 'x', {}), pdfSignal('form_value_changed', 'x', {})], 'full', null);
  assert.equal(decision.band, 'low');
});

test('a high tampering signal makes high, even when little else could be read', () => {
  const decision = decideBand([pdfSignal('page_text_changed', 'x', {})], 'minimal', 'the file is encrypted');
  assert.equal(decision.band, 'high');
  assert.match(decision.headline, /^High: page text changed in a later revision/);
});

test('too little read and nothing high is insufficient; a failed parse is error', () => {
  assert.equal(decideBand([pdfSignal('javascript', 'x', {})], 'minimal', 'the pages have no text layer').band, 'insufficient');
  const failed = decideBand([], 'failed', 'no PDF header');
  assert.equal(failed.band, 'error');
  assert.match(failed.rule, /Applied: error: no PDF header\./);
});

test('the rule text every warrant carries states the written rule', () => {
  assert.ok(decideBand([], 'full', null).rule.startsWith(`Rule: ${BAND_RULE} Applied: low`));
});

test('the PDF catalogue has at least 24 stable signal codes, none raised by structure at high severity', () => {
  const codes = Object.keys(pdfSignalCatalogue);
  assert.ok(codes.length >= 24, `${codes.length} codes`);
  for (const code of codes) assert.match(code, /^[a-z][a-z0-9_]*$/);
  const entries: [string, { group: string; severity: string }][] = Object.entries(pdfSignalCatalogue);
  assert.deepEqual(entries.filter(([, entry]) => entry.group === 'structure' && entry.severity === 'high'), []);
});
