import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { reportPdf } from '../../../../test/helpers/report-pdf.ts';
import { extractOptionNames, extractOptionOutputs, extractOptionRunners, invalidOptionSettings } from './index.ts';

test('every option runs with its defaults and returns what its output schema declares, as JSON', async () => {
  const read = await readLayoutPdf(await reportPdf());
  const fields = { noise: { value: '85', confidence: 0.6, page: 1 } };
  for (const name of extractOptionNames) {
    const output = await extractOptionRunners[name]({ ...read, fields, settings: true });
    assert.deepEqual(extractOptionOutputs[name].parse(output), output, name);
    assert.deepEqual(JSON.parse(JSON.stringify(output)), output, `${name} is plain JSON`);
  }
});

test('the same input gives the same output (the content cache depends on it)', async () => {
  const read = await readLayoutPdf(await reportPdf());
  for (const name of extractOptionNames) {
    const input = { ...read, fields: {}, settings: true };
    assert.deepEqual(await extractOptionRunners[name](input), await extractOptionRunners[name](input), name);
  }
});

test('settings are checked at the boundary with the schemas the runners use, naming the option and the setting', () => {
  assert.equal(invalidOptionSettings({ tables: true, chunks: { strategy: 'fixed', max_tokens: 300, overlap: 30 }, flag_below: 0.7, redact: { kinds: 'tfn' } }), null);
  assert.equal(
    invalidOptionSettings({ tables: true, chunks: { strategy: 'by_title', max_tokens: 99999 } }),
    'Invalid settings for extract option chunks: max_tokens: Too big: expected number to be <=8192. See GET /v1/extract/capabilities for what each option accepts.',
  );
  assert.match(invalidOptionSettings({ tables: 3 })!, /^Invalid settings for extract option tables: /);
  assert.match(invalidOptionSettings({ layout: { columns: 2 } })!, /^Invalid settings for extract option layout: Unrecognized key: "columns"/);
  assert.equal(invalidOptionSettings({ grounding: false }), null);
});

test('a document with no pages read (or nothing on them) gives empty results, not a failure', async () => {
  const document = { bytes: new Uint8Array([1]), sha256: 'x', kind: 'image' as const, mime: 'image/png', filename: null };
  const blank = [{ page: 1, width: 595, height: 842, source: 'ocr' as const, items: [], text: '', confidence: 0 }];
  for (const pages of [[], blank]) {
    for (const name of extractOptionNames) {
      const output = await extractOptionRunners[name]({ document, pages, fields: {}, settings: true });
      assert.deepEqual(extractOptionOutputs[name].parse(output), output, `${name} on ${pages.length} pages`);
    }
  }
});
