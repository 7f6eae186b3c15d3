import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HTTPException } from 'hono/http-exception';
import { invalidBodyStatus } from '../../schemas/common.ts';
import { extractRequestOptions, optionsFromQuery } from './options.ts';

test('a JSON body: names and typed fields normalised, defaults filled, options off unless switched on', () => {
  const parsed = extractRequestOptions.parse({
    fields: ['Invoice number', { name: 'Paid', type: 'boolean', question: 'Is the invoice marked paid?' }, { name: 'Due', type: 'date', description: 'Payment due date' }],
    country: 'in',
    options: { tables: { min_rows: 2 }, grounding: true, redact: false, flag_below: 0.7 },
  });
  assert.deepEqual(parsed.fields, [
    { name: 'Invoice number', type: 'text', hint: null },
    { name: 'Paid', type: 'boolean', hint: 'Is the invoice marked paid?' },
    { name: 'Due', type: 'date', hint: 'Payment due date' },
  ]);
  assert.equal(parsed.country, 'IN');
  assert.equal(parsed.max_pages, 10);
  assert.equal(parsed.render_scale, 2);
  assert.deepEqual(parsed.options, { tables: { min_rows: 2 }, grounding: true, flag_below: 0.7 });
});

test('max_pages above the ceiling reads 10 pages; below 1 or fractional is refused', () => {
  assert.equal(extractRequestOptions.parse({ max_pages: 50 }).max_pages, 10);
  assert.equal(extractRequestOptions.parse({ max_pages: 3 }).max_pages, 3);
  assert.equal(extractRequestOptions.safeParse({ max_pages: 0 }).success, false);
  assert.equal(extractRequestOptions.safeParse({ max_pages: 2.5 }).success, false);
});

test('render_scale takes only the five scales; a template only the five templates', () => {
  assert.equal(extractRequestOptions.parse({ render_scale: 1.5 }).render_scale, 1.5);
  assert.equal(extractRequestOptions.safeParse({ render_scale: 2.5 }).success, false);
  assert.equal(extractRequestOptions.safeParse({ template: 'passport' }).success, false);
  assert.equal(extractRequestOptions.parse({ template: 'tax_invoice' }).template, 'tax_invoice');
});

test('an unknown option in a JSON body is a 400 issue naming it; a field named twice is a 422', () => {
  const unknown = extractRequestOptions.safeParse({ options: { tables: true, ocr_everything: true } });
  assert.equal(unknown.success, false);
  assert.equal(invalidBodyStatus(unknown.error!), 400);
  assert.match(unknown.error!.issues[0]!.message, /"ocr_everything" is not an extract option; the options are tables, grounding/);
  assert.deepEqual(unknown.error!.issues[0]!.path, ['options', 'ocr_everything']);
  const twice = extractRequestOptions.safeParse({ fields: ['ABN', 'abn'] });
  assert.equal(invalidBodyStatus(twice.error!), 422);
});

test('the flat query form gives the same object as the JSON body', () => {
  const fromQuery = optionsFromQuery({
    fields: ['Invoice number', 'ABN'],
    template: 'tax_invoice',
    max_pages: '4',
    render_scale: '3',
    tables: 'true',
    grounding: '1',
    redact: 'false',
    flag_below: '0.6',
    'chunks.strategy': 'by_title',
    'chunks.max_tokens': '800',
    stream: '1',
  });
  const fromBody = extractRequestOptions.parse({
    fields: ['Invoice number', 'ABN'],
    template: 'tax_invoice',
    max_pages: 4,
    render_scale: 3,
    options: { tables: true, grounding: true, flag_below: 0.6, chunks: { strategy: 'by_title', max_tokens: 800 } },
  });
  assert.deepEqual(fromQuery, fromBody);
});

function queryError(query: Record<string, string | string[]>): { status: number; message: string } {
  try {
    optionsFromQuery(query);
  } catch (error) {
    assert.ok(error instanceof HTTPException);
    return { status: error.status, message: error.message };
  }
  assert.fail('expected the query to be refused');
}

test('the query form refuses an unknown parameter or option, naming it, with 400', () => {
  assert.deepEqual(queryError({ tables: 'true', summarise: 'true' }).status, 400);
  assert.match(queryError({ summarise: 'true' }).message, /^Unknown query parameter summarise: extract takes fields, template/);
  assert.match(queryError({ 'tables.a.b': '1' }).message, /^Unknown query parameter tables\.a\.b/);
  assert.match(queryError({ template: ['payslip', 'receipt'] }).message, /template is given 2 times/);
  assert.match(queryError({ max_pages: 'many' }).message, /^Invalid query parameter max_pages:/);
  assert.match(queryError({ tables: 'yes please' }).message, /^Invalid query parameter tables=yes please/);
  assert.match(queryError({ tables: 'true', 'tables.min_rows': '2' }).message, /both as a switch and with settings/);
});

test("an option's settings are checked by the option's own schema, in both forms", () => {
  const body = extractRequestOptions.safeParse({ options: { chunks: { strategy: 'by_vibes' } } });
  assert.equal(body.success, false);
  assert.equal(invalidBodyStatus(body.error!), 422);
  assert.match(body.error!.issues[0]!.message, /^has settings its option refuses \(strategy: /);
  assert.match(queryError({ 'tables.min_rows': '0' }).message, /^Invalid query parameter tables: has settings its option refuses \(min_rows: /);
});
