import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capabilities, extractCapabilities, unavailableOptionsDetail } from './capabilities.ts';
import { extractOptionNames, extractOptionSettings } from './options/index.ts';
import realPayslips from '../../../measured/extract-real-payslips.json' with { type: 'json' };
import realStatements from '../../../measured/extract-real-statements.json' with { type: 'json' };
import realContracts from '../../../measured/classify-real-contracts.json' with { type: 'json' };

test('every option is described, its settings schema matches what the option accepts, and the reply fits its schema', () => {
  const reply = extractCapabilities();
  assert.deepEqual(capabilities.parse(reply), reply);
  assert.deepEqual(reply.options.map((option) => option.option), [...extractOptionNames]);
  assert.ok(reply.options.every((option) => option.available));
  const tables = reply.options.find((option) => option.option === 'tables')!;
  assert.deepEqual((tables.accepts['properties'] as Record<string, { enum?: string[] }>)['source']!.enum, ['native_pdf', 'vlm']);
  assert.deepEqual(tables.variants.find((variant) => variant.value === 'vlm'), { setting: 'source', value: 'vlm', available: false, reason: 'no vision model is configured on this server' });
  const chunks = reply.options.find((option) => option.option === 'chunks')!;
  assert.deepEqual((chunks.accepts['properties'] as Record<string, { enum?: string[] }>)['strategy']!.enum, ['by_page', 'by_title', 'by_element', 'by_sentence', 'fixed', 'hybrid']);
  assert.deepEqual(
    reply.options.filter((option) => option.measured).map((option) => [option.option, option.measurement!.figure]),
    [
      ['tables', 'table precision 1.00, recall 1.00, cells right 1.00'],
      ['grounding', '0.99 of labelled values located, 1.00 of them with their text inside the box'],
      ['classify', 'accuracy 1.00'],
      ['redact', 'precision 1.00, recall 1.00'],
      ['split', 'boundary precision 1.00, recall 1.00'],
    ],
  );
  assert.ok(reply.options.every((option) => option.measured === (option.measurement !== null)));
  // What the capabilities say an option accepts, its runner accepts.
  assert.equal(extractOptionSettings.chunks.safeParse({ strategy: 'hybrid', max_tokens: 300, overlap: 20 }).success, true);
});

test('a request for what is not configured is refused by name; available options pass', () => {
  assert.equal(
    unavailableOptionsDetail({ tables: { source: 'vlm' }, chunks: true }),
    'Unsupported extract option: tables with source vlm is not available (no vision model is configured on this server). See GET /v1/extract/capabilities for what this server offers.',
  );
  assert.equal(unavailableOptionsDetail({ tables: { source: 'native_pdf', min_rows: 3 }, flag_below: 0.7, redact: true }), null);
  assert.equal(unavailableOptionsDetail({}), null);
});

test('the payslip and statement fields and the contracts classification state their figures on real documents, and on which', () => {
  const reply = extractCapabilities();
  assert.equal(reply.payslip_fields.labelled_set, realPayslips.corpus);
  assert.equal(reply.payslip_fields.metrics['all_fields'], realPayslips.figures.all_fields);
  assert.match(reply.payslip_fields.figure, new RegExp(`^in the right field: employer name ${realPayslips.figures.employer_name.toFixed(2)} of ${realPayslips.figures.employer_name_documents}, `));
  assert.match(reply.payslip_fields.figure, new RegExp(`all fields ${realPayslips.figures.all_fields.toFixed(2)}$`));
  assert.equal(reply.statement_fields.labelled_set, realStatements.corpus);
  assert.match(reply.statement_fields.figure, new RegExp(`closing balance ${realStatements.figures.closing_balance.toFixed(2)} of ${realStatements.figures.closing_balance_documents}; `));
  const classify = reply.options.find((option) => option.option === 'classify')!.real_documents!;
  assert.equal(classify.metrics['contract_recall'], realContracts.figures.contract_recall);
  assert.ok(classify.labelled_set.includes('fixtures/corpora/contracts'));
});
