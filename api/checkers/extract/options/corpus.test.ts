import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateExtractionCorpus } from '../../../../test/helpers/extraction-corpus.ts';
import { readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { recordMeasured } from '../../../../test/helpers/measured.ts';
import { classifyDocument } from '../classify.ts';
import { chunkStrategies, chunks } from './chunks.ts';
import { grounding } from './grounding.ts';
import { layout } from './layout.ts';
import { locatePage, textInBox } from './page-lines.ts';
import { redact } from './redact.ts';
import { tables } from './tables.ts';

// The extraction corpus (64 labelled documents over the five templates) was written for the extract core,
// not for these options: a second, independent check of tables, classify and grounding.
const corpus = generateExtractionCorpus().then((documents) => Promise.all(documents.map(async (document) => ({ document, read: await readLayoutPdf(document.pdf) }))));

const amount = (text: string | undefined) => Number((text ?? '').replace(/[$,\s]/g, '') || 'NaN');

test('extraction corpus: invoice and receipt line items and statement transactions as tables, none on payslips', async () => {
  let [expected, found, right] = [0, 0, 0];
  for (const { document, read } of await corpus) {
    if (document.template === 'contract') continue;
    const result = await tables({ ...read, fields: {}, settings: true });
    found += result.length;
    if (document.template === 'tax_invoice') {
      expected++;
      const table = result.find((candidate) => candidate.header.join('|') === 'Description|Qty|Unit price|Amount');
      const sum = Math.round((table?.json ?? []).reduce((total, row) => total + amount(row['Amount']), 0) * 100) / 100;
      // The line amounts add up to the subtotal only when every row was read, over every page.
      if (table && table.json[0]!['Description'] === document.truth['description'] && sum === document.truth['subtotal'] && table.pages.length === document.pages) right++;
    } else if (document.template === 'receipt') {
      expected++;
      // A receipt's item lines have no header: read right, their amounts add up to the total.
      const table = result.find((candidate) => candidate.header.join('|') === 'description|amount');
      const sum = Math.round((table?.json ?? []).reduce((total, row) => total + amount(row['amount']), 0) * 100) / 100;
      if (table && sum === document.truth['total']) right++;
    } else if (document.template === 'bank_statement') {
      expected++;
      const table = result.find((candidate) => candidate.header.join('|') === 'Date|Description|Debit|Credit|Balance');
      const closing = amount(table?.json.at(-1)?.['Balance']);
      if (table && closing === document.truth['closing_balance'] && table.pages.length === document.pages) right++;
    }
  }
  const precision = right / found;
  const recall = right / expected;
  console.log(`tables on the extraction corpus: precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} (${right} read whole and right of ${found} found, ${expected} expected)`);
  assert.ok(precision >= 0.95 && recall >= 0.95, `precision ${precision} recall ${recall}`);
});

test('extraction corpus: classify names each document its template', async () => {
  const documents = await corpus;
  const right = documents.filter(({ document, read }) => classifyDocument(read.pages).document_type === document.template).length;
  console.log(`classify on the extraction corpus: accuracy ${(right / documents.length).toFixed(3)} over ${documents.length} documents`);
  assert.ok(right / documents.length >= 0.95);
});

test('extraction corpus: grounding finds each labelled value in the text layer, and its box holds that text', async () => {
  let [values, located, boxed] = [0, 0, 0];
  for (const { document, read } of await corpus) {
    const fields = Object.fromEntries(Object.entries(document.truth).map(([name, value]) => [name, { value, confidence: 1, page: 1 }]));
    const result = await grounding({ ...read, fields, settings: true });
    for (const found of Object.values(result)) {
      values++;
      if (!found.text_layer_match || !found.bbox) continue;
      located++;
      const page = locatePage(read.pages.find((candidate) => candidate.page === found.page)!);
      const inBox = textInBox(page, found.bbox as [number, number, number, number]).replace(/\s+/g, ' ');
      if (inBox.includes(found.matched_text!.replace(/\s+/g, ' '))) boxed++;
    }
  }
  console.log(`grounding on the extraction corpus: ${located}/${values} values located (${(located / values).toFixed(3)}), ${boxed} of them with the value's text inside the box`);
  assert.ok(located / values >= 0.95, `located ${located / values}`);
  assert.ok(boxed / located >= 0.95, `boxed ${boxed / located}`);
  // The capabilities reply (capabilities.ts) quotes the recorded figures.
  recordMeasured('extract-option-grounding', {
    corpus: `the extract core's ${(await corpus).length} generated text-layer documents (five templates, several layouts and date styles)`,
    truth: 'The generator labels every value it printed.',
    figures: { documents: (await corpus).length, values, located_values: located, located: located / values, text_in_box: boxed / located },
    floors: { located: 0.95, text_in_box: 0.95 },
  });
});

test('extraction corpus: every chunk strategy keeps each table whole and places every chunk', async () => {
  let [chunked, tablesSeen] = [0, 0];
  for (const { read } of await corpus) {
    const { blocks } = await layout({ ...read, fields: {}, settings: true });
    const tableSpans = blocks.filter((block) => block.type === 'table').map((block) => block.char_span as [number, number]);
    tablesSeen += tableSpans.length;
    for (const strategy of chunkStrategies) {
      const result = await chunks({ ...read, fields: {}, settings: { strategy, max_tokens: 64, overlap: 8 } });
      for (const chunk of result.chunks) {
        chunked++;
        const [start, end] = chunk.char_span as [number, number];
        for (const [tableStart, tableEnd] of tableSpans) assert.ok(end <= tableStart || start >= tableEnd || (start <= tableStart && end >= tableEnd), `${strategy} cuts a table`);
        assert.ok(chunk.positions.length > 0 && chunk.positions.every((position) => position.bbox !== null), `${strategy} chunk ${chunk.index} has no box`);
      }
    }
  }
  console.log(`chunks on the extraction corpus: ${chunked} chunks over six strategies, ${tablesSeen} tables, none cut`);
  assert.ok(tablesSeen >= 27);
});

test('extraction corpus: redact finds every labelled ABN, BSB and account number', async () => {
  const kinds: Record<string, string> = { supplier_abn: 'abn', buyer_abn: 'abn', employer_abn: 'abn', seller_abn: 'abn', bsb: 'bank_account', account_number: 'bank_account' };
  let [expected, found] = [0, 0];
  for (const { document, read } of await corpus) {
    const result = await redact({ ...read, fields: {}, settings: true });
    const texts = new Map(result.spans.map((span) => [`${span.kind} ${locatePage(read.pages[span.page - 1]!).text.slice(span.start, span.end)}`, span]));
    for (const [field, kind] of Object.entries(kinds)) {
      const value = document.truth[field];
      if (value === undefined) continue;
      expected++;
      if (texts.has(`${kind} ${value}`)) found++;
    }
  }
  console.log(`redact on the extraction corpus: ${found}/${expected} labelled ABNs, BSBs and account numbers found (recall ${(found / expected).toFixed(3)})`);
  assert.ok(found / expected >= 0.95, `recall ${found / expected}`);
});
