import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { reportPdf } from '../../../../test/helpers/report-pdf.ts';
import { extractOptionNames, extractOptionOutputs, extractOptionRunners } from './index.ts';

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
