import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { layoutPdf, readLayoutPdf, type PlacedText } from '../../../../test/helpers/layout-pdf.ts';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';
import { recordMeasured } from '../../../../test/helpers/measured.ts';
import { tables } from './tables.ts';

/**
 * A table drawn run by run: header at `top`, one row every 16 points; numbers right-aligned at their
 * column's edge. With `wordRuns` each word is a run of its own, as many PDF producers write them.
 */
const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
const width = (text: string) => helvetica.widthOfTextAtSize(text, 10);

function drawTable(header: string[], rows: string[][], columnsX: number[], top: number, rightAligned: boolean[] = [], wordRuns = false): PlacedText[] {
  const texts: PlacedText[] = [];
  const place = (row: string[], rowTop: number) =>
    row.forEach((text, i) => {
      if (text === '') return;
      const x = rightAligned[i] ? columnsX[i]! + 60 - width(text) : columnsX[i]!;
      if (!wordRuns) return texts.push({ text, x, top: rowTop });
      // Each word placed where the line's own layout puts it: after the previous word and a space.
      let wordX = x;
      for (const word of text.split(' ')) {
        texts.push({ text: word, x: wordX, top: rowTop });
        wordX += width(`${word} `);
      }
    });
  place(header, top);
  rows.forEach((row, i) => place(row, top + 16 * (i + 1)));
  return texts;
}

const paragraph = (top: number, lines: string[], x = 50): PlacedText[] => lines.map((text, i) => ({ text, x, top: top + i * 13 }));

test('an invoice table: header, rows as objects, the key-value block above it is not a table', async () => {
  const header = ['Description', 'Qty', 'Unit price', 'Amount'];
  const rows = [
    ['Site survey', '1', '450.00', '450.00'],
    ['Concrete footing', '12', '85.50', '1,026.00'],
    ['Labour (hours)', '6', '95.00', '570.00'],
  ];
  const bytes = await layoutPdf([
    {
      texts: [
        { text: 'TAX INVOICE', x: 50, top: 40, size: 18 },
        { text: 'Invoice number:', x: 50, top: 80 },
        { text: 'INV-2041', x: 200, top: 80 },
        { text: 'Date:', x: 50, top: 96 },
        { text: '12/03/2025', x: 200, top: 96 },
        ...paragraph(130, ['Works completed at 14 Example Street as quoted.']),
        ...drawTable(header, rows, [50, 250, 330, 430], 170, [false, true, true, true]),
        { text: 'Thank you for your business.', x: 50, top: 300 },
      ],
    },
  ]);
  const result = await tables({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.equal(result.length, 1);
  const [table] = result;
  assert.deepEqual(table!.header, header);
  assert.deepEqual(table!.json, rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]))));
  assert.deepEqual([table!.page, table!.pages, table!.source], [1, [1], 'native_pdf']);
  assert.deepEqual(table!.bbox.slice(0, 2), [50, 170]);
});

test('a table continued over a page break is one table: repeated header dropped, header-less continuation kept', async () => {
  const header = ['Date', 'Description', 'Debit', 'Credit', 'Balance'];
  const row = (n: number) => [`0${(n % 9) + 1}/04/2025`, `Transfer ${n}`, n % 2 ? `${n}0.00` : '', n % 2 ? '' : `${n}5.00`, `${1000 + n}.00`];
  const columns = [50, 130, 300, 380, 460];
  const aligned = [false, false, true, true, true];
  const page1 = Array.from({ length: 4 }, (_, i) => row(i + 1));
  const page2 = Array.from({ length: 3 }, (_, i) => row(i + 5));
  const page3 = Array.from({ length: 2 }, (_, i) => row(i + 8));
  const bytes = await layoutPdf([
    { texts: [{ text: 'Account statement', x: 50, top: 40, size: 16 }, ...drawTable(header, page1, columns, 700, aligned)] },
    { texts: [{ text: 'Page 2', x: 50, top: 30 }, ...drawTable(header, page2, columns, 60, aligned)] },
    // Page 3 carries on without a header: its first row is data.
    { texts: [...drawTable(page3[0]!, page3.slice(1), columns, 60, aligned), { text: 'Closing balance 1009.00', x: 50, top: 200 }] },
  ]);
  const result = await tables({ ...(await readLayoutPdf(bytes)), fields: {}, settings: { min_rows: 1 } });
  assert.equal(result.length, 1);
  assert.deepEqual(result[0]!.pages, [1, 2, 3]);
  assert.deepEqual(result[0]!.header, header);
  assert.deepEqual(
    result[0]!.json.map((object) => object['Description']),
    ['Transfer 1', 'Transfer 2', 'Transfer 3', 'Transfer 4', 'Transfer 5', 'Transfer 6', 'Transfer 7', 'Transfer 8', 'Transfer 9'],
  );
  assert.deepEqual(result[0]!.json[0], { Date: '02/04/2025', Description: 'Transfer 1', Debit: '10.00', Credit: '', Balance: '1001.00' });
});

test('two columns of prose are not a table; settings are checked', async () => {
  const left = Array.from({ length: 12 }, (_, i) => `The contractor must keep records of line ${i} work`);
  const right = Array.from({ length: 12 }, (_, i) => `and give the principal access at reasonable ${i} times`);
  const bytes = await layoutPdf([{ texts: [...paragraph(60, left, 50), ...paragraph(60, right, 320)] }]);
  const read = await readLayoutPdf(bytes);
  assert.deepEqual(await tables({ ...read, fields: {}, settings: true }), []);
  await assert.rejects(tables({ ...read, fields: {}, settings: { min_rows: 0 } }));
  await assert.rejects(tables({ ...read, fields: {}, settings: { source: 'vlm' } }), /no vision model/);
});

const words = ['Item', 'Code', 'Hours', 'Rate', 'Total', 'Unit price', 'Region', 'Status', 'Owner', 'Due', 'Amount', 'Type', 'Ref', 'GST', 'Cost centre'];
const cellWords = ['Cement', 'Steel bar', 'Pipe 40mm', 'Survey', 'Crane hire (half day)', 'Fencing', 'Gravel', 'Design review', 'Audit', 'Labour'];

test('measured on 30 generated pages (half with a run per word) with 40 labelled tables and distractors: table and cell precision/recall (floor 0.95)', async () => {
  const random = seededRandom(1504);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  let [labelled, detected, tablesRight, cellsLabelled, cellsRight] = [0, 0, 0, 0, 0];
  for (let p = 0; p < 30; p++) {
    const texts: PlacedText[] = [{ text: `Schedule ${p + 1}`, x: 50, top: 40, size: 16 }];
    const truth: { header: string[]; rows: string[][] }[] = [];
    let top = 80;
    const parts = p % 3 === 0 ? 2 : 1;
    for (let t = 0; t < parts; t++) {
      const columnCount = 2 + Math.floor(random() * 4);
      const header = [...new Set(Array.from({ length: columnCount + 3 }, () => pick(words)))].slice(0, columnCount);
      const rows = Array.from({ length: 2 + Math.floor(random() * 6) }, () =>
        header.map((_, i) => (i === 0 ? pick(cellWords) : random() < 0.1 ? '' : (random() * 900 + 10).toFixed(2))),
      );
      // The first column is wide enough for its longest description; the numbers share the rest.
      const columnWidth = 330 / (header.length - 1);
      texts.push(...drawTable(header, rows, header.map((_, i) => (i === 0 ? 50 : 200 + (i - 1) * columnWidth)), top, header.map((_, i) => i > 0), p % 2 === 1));
      truth.push({ header, rows });
      top += 16 * (rows.length + 1) + 40;
      // Distractors between tables: a key-value block and a paragraph.
      texts.push({ text: 'Prepared by:', x: 50, top }, { text: 'J. Citizen', x: 200, top }, { text: 'Approved:', x: 50, top: top + 16 }, { text: '14/05/2025', x: 200, top: top + 16 });
      texts.push(...paragraph(top + 50, ['These quantities are estimates and may change after the', 'site inspection is complete.']));
      top += 100;
    }
    const result = await tables({ ...(await readLayoutPdf(await layoutPdf([{ texts }]))), fields: {}, settings: true });
    labelled += truth.length;
    detected += result.length;
    for (const expected of truth) {
      const match = result.find((table) => table.header.join('|') === expected.header.join('|'));
      cellsLabelled += expected.rows.length * expected.header.length;
      if (!match) continue;
      const got = match.json.map((row) => expected.header.map((name) => row[name] ?? ''));
      if (JSON.stringify(got) === JSON.stringify(expected.rows)) tablesRight++;
      expected.rows.forEach((row, r) => row.forEach((cell, c) => (got[r]?.[c] === cell ? cellsRight++ : undefined)));
    }
  }
  const precision = tablesRight / detected;
  const recall = tablesRight / labelled;
  const cellRecall = cellsRight / cellsLabelled;
  console.log(`tables: precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} (${tablesRight} exact of ${detected} found, ${labelled} labelled); cells right ${cellRecall.toFixed(3)} of ${cellsLabelled}`);
  assert.ok(precision >= 0.95, `precision ${precision}`);
  assert.ok(recall >= 0.95, `recall ${recall}`);
  assert.ok(cellRecall >= 0.95, `cell recall ${cellRecall}`);
  // The capabilities reply (capabilities.ts) quotes the recorded figures.
  recordMeasured('extract-option-tables', {
    corpus: '30 generated text-layer pages (half with a run per word) with labelled tables, key-value blocks and paragraphs between them (seeded)',
    truth: 'The generator that drew each table labels its header and cells.',
    figures: { pages: 30, tables: labelled, found: detected, read_whole: tablesRight, cells: cellsLabelled, table_precision: precision, table_recall: recall, cell_accuracy: cellRecall },
    floors: { table_precision: 0.95, table_recall: 0.95, cell_accuracy: 0.95 },
  });
});

test('an OCR page (a box per word, heights and baselines that wobble) gives the same table', async () => {
  const rows = [
    ['Item', 'Qty', 'Amount'],
    ['Steel bar', '4', '120.00'],
    ['Crane hire', '1', '950.00'],
  ];
  const items = rows.flatMap((row, r) =>
    row.flatMap((cell, c) => {
      let x = [50, 250, 380][c]!;
      return cell.split(' ').map((word, w) => {
        const item = { text: word, x, y: 100 + r * 18 + ((r + c + w) % 3) - 1, width: width(word), height: 9 + ((c + w) % 2), font: null };
        x += width(`${word} `);
        return item;
      });
    }),
  );
  const pages = [{ page: 1, width: 595, height: 842, source: 'ocr' as const, items, text: '', confidence: 0.9 }];
  const document = { bytes: new Uint8Array([1]), sha256: 'x', kind: 'image' as const, mime: 'image/png', filename: null };
  const result = await tables({ document, pages, fields: {}, settings: true });
  assert.deepEqual(
    result.map((table) => [table.header, table.json]),
    [
      [
        ['Item', 'Qty', 'Amount'],
        [
          { Item: 'Steel bar', Qty: '4', Amount: '120.00' },
          { Item: 'Crane hire', Qty: '1', Amount: '950.00' },
        ],
      ],
    ],
  );
});
