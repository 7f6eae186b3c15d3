import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { split } from '../api/checkers/extract/options/split.ts';
import { readDocument } from '../api/documents/read.ts';
import type { IntakeDocument } from '../api/documents/types.ts';
import { recordMeasured } from './helpers/measured.ts';
import { seededRandom } from './helpers/seeded-random.ts';

/**
 * Issue 26 part 2: `split` on concatenated real documents. The real PDFs with a text layer of
 * fixtures/corpora/{invoices,statements,payslips} (five pages or fewer each) are joined, two to four at a time in a
 * seeded draw, into one PDF with pdf-lib; the truth is the construction: each original's page range, and its type
 * from its own hand-made truth file. The joined file is read as an upload is (text layer) and split; a boundary is
 * right when a document is found to start on the first page of an original, and a document's type is judged only
 * where its page range came out exactly.
 */
const root = join(import.meta.dirname, '..', 'fixtures', 'corpora');
const folders = ['invoices', 'statements', 'payslips'] as const;
const files = 30;
const maxSourcePages = 5;

interface Source {
  file: string;
  bytes: Uint8Array;
  pages: number;
  type: string;
}

function intake(bytes: Uint8Array, filename: string): IntakeDocument {
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'pdf', mime: 'application/pdf', filename };
}

/** The PDFs whose every page has a text layer, with the type their truth file gives. */
async function sources(): Promise<Source[]> {
  const found: Source[] = [];
  for (const folder of folders) {
    for (const name of readdirSync(join(root, folder)).filter((entry) => entry.endsWith('.pdf.truth.json')).sort()) {
      const truth = JSON.parse(readFileSync(join(root, folder, name), 'utf8')) as { file: string; document_type: string };
      const bytes = new Uint8Array(readFileSync(join(root, folder, truth.file)));
      const read = await readDocument(intake(bytes, truth.file), { maxPages: maxSourcePages + 1, renderScale: 2, ocr: false });
      if (read.pageCount > maxSourcePages || read.pages.some((page) => page.text.replace(/\s/g, '').length < 20)) continue;
      // A file pdf-lib cannot copy pages from (encrypted, broken cross-references) cannot be joined.
      if (!(await PDFDocument.load(bytes, { ignoreEncryption: false }).then(() => true, () => false))) continue;
      found.push({ file: `${folder}/${truth.file}`, bytes, pages: read.pageCount, type: truth.document_type });
    }
  }
  return found;
}

async function joined(parts: readonly Source[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const part of parts) {
    const from = await PDFDocument.load(part.bytes);
    for (const page of await out.copyPages(from, from.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

test('split on concatenated real documents: boundaries and types found (issue 26 part 2)', { timeout: 600_000 }, async () => {
  const pool = await sources();
  const random = seededRandom(2606);
  const counts = { boundaries: 0, found: 0, right: 0, documents: 0, exact: 0, typed: 0 };
  const byType = new Map<string, [number, number]>();
  const misses: string[] = [];
  for (let n = 0; n < files; n++) {
    const parts: Source[] = [];
    const count = 2 + Math.floor(random() * 3);
    while (parts.length < count) {
      const pick = pool[Math.floor(random() * pool.length)]!;
      if (!parts.includes(pick)) parts.push(pick);
    }
    const truth: [number, number][] = [];
    for (const part of parts) {
      const start = (truth.at(-1)?.[1] ?? 0) + 1;
      truth.push([start, start + part.pages - 1]);
    }
    const bytes = await joined(parts);
    const read = await readDocument(intake(bytes, `joined-${n}.pdf`), { maxPages: 40, renderScale: 2, ocr: false });
    const result = await split({ document: intake(bytes, `joined-${n}.pdf`), pages: read.pages, fields: {}, settings: true });
    const expected = new Set(truth.slice(1).map(([start]) => start));
    const starts = result.documents.slice(1).map((document) => document.pages[0]!);
    counts.boundaries += expected.size;
    counts.found += starts.length;
    counts.right += starts.filter((start) => expected.has(start)).length;
    for (const [index, [start, end]] of truth.entries()) {
      const part = parts[index]!;
      counts.documents++;
      const exact = result.documents.find((document) => document.pages[0] === start && document.pages[1] === end);
      const tally = byType.get(part.type) ?? [0, 0];
      tally[1]++;
      if (exact) counts.exact++;
      if (exact?.document_type === part.type) {
        counts.typed++;
        tally[0]++;
      }
      byType.set(part.type, tally);
      if (!exact) misses.push(`file ${n}: ${part.file} pages ${start}-${end} not found as one document (found ${result.documents.map((document) => document.pages.join('-')).join(', ')})`);
      else if (exact.document_type !== part.type) misses.push(`file ${n}: ${part.file} split right but typed ${exact.document_type}, truth ${part.type}`);
    }
  }
  const figures = {
    sources: pool.length,
    files,
    boundaries: counts.boundaries,
    boundaries_found: counts.found,
    boundary_precision: counts.right / counts.found,
    boundary_recall: counts.right / counts.boundaries,
    documents: counts.documents,
    exact_page_ranges: counts.exact / counts.documents,
    type_right: counts.typed / counts.documents,
  };
  process.stdout.write(
    [
      `split on ${files} joined files of 2 to 4 real documents (${pool.length} text-layer PDFs of ${folders.join(', ')}, up to ${maxSourcePages} pages each)`,
      `  boundaries: precision ${figures.boundary_precision.toFixed(3)} (${counts.right}/${counts.found}), recall ${figures.boundary_recall.toFixed(3)} (${counts.right}/${counts.boundaries})`,
      `  documents with the exact page range ${counts.exact}/${counts.documents} = ${figures.exact_page_ranges.toFixed(3)}; with the range and the type right ${counts.typed}/${counts.documents} = ${figures.type_right.toFixed(3)}`,
      `  type right by truth type: ${[...byType].sort().map(([type, [right, all]]) => `${type} ${right}/${all}`).join(', ')}`,
      ...misses.map((line) => `    ${line}`),
      '',
    ].join('\n'),
  );
  assert.ok(pool.length >= 30, `the pool holds ${pool.length} text-layer PDFs`);
  recordMeasured('extract-split-real', {
    corpus: `${files} files joined from 2 to 4 of ${pool.length} real text-layer PDFs (fixtures/corpora/invoices, statements, payslips; up to ${maxSourcePages} pages each), seeded draw`,
    truth: 'By construction: each original keeps its page range in the joined file; its type is the one its hand-made truth file gives.',
    figures,
    floors: FLOORS,
  });
});

/**
 * The issue sets no number for split. Before the fonts, paper size, document numbers and titles of every language
 * were read as cues, this set measured boundary precision 0.796, recall 0.694, exact page ranges 0.533 and type right
 * 0.489; the floors sit just under what the reader reached on the draw from 66 sources (0.910, 0.984, 0.913, 0.793), so a fall fails
 * (69 sources draw another set: 0.954, 1, 0.967, 0.837).
 */
const FLOORS = { boundary_precision: 0.9, boundary_recall: 0.95, exact_page_ranges: 0.9, type_right: 0.75 };
