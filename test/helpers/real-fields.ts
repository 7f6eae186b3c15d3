import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractFromRead } from '../../api/checkers/extract/analyse.ts';
import { extractRequestOptions } from '../../api/checkers/extract/options.ts';
import type { ExtractDocumentType } from '../../api/checkers/extract/classify.ts';
import { foldAccents } from '../../api/checkers/extract/values.ts';
import { openOcrSession } from '../../api/documents/ocr.ts';
import { readDocument } from '../../api/documents/read.ts';
import type { DocumentKind, IntakeDocument } from '../../api/documents/types.ts';

/**
 * Fields read from real documents against their hand-made truth files (fixtures/corpora/<folder>/*.truth.json):
 * for each field, how many documents whose truth has the field get that value in that field of the template's
 * result. Shared by the payslip and statement corpus tests.
 */

/** How a field's value is compared: amounts to the cent, dates exactly (ISO), names folded, account numbers without spaces or dashes. */
export type FieldComparison = 'amount' | 'date' | 'name' | 'account';

export interface FieldScore {
  right: number;
  of: number;
}

export interface CorpusFields {
  documents: number;
  scores: Record<string, FieldScore>;
  /** One line per document and field: right or wrong, wanted and got. */
  lines: string[];
}

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'corpora');

const kinds: Record<string, { kind: DocumentKind; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  png: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  sta: { kind: 'text', mime: 'text/plain' },
};

const fold = (text: string) => foldAccents(text).replace(/[^\p{L}\d]+/gu, ' ').trim();

/**
 * A name is right when, folded, it holds the truth's name or is held by it, word by word (a legal form, a branch or
 * an address line more or fewer), or equals it without spaces ("ABCCompany"). A truth naming several people or a
 * bank and its parent ("Rachael Dean; Calvin Carrillo", "Bluevine Inc. (Coastal Community Bank)") accepts any of them.
 */
export function sameName(got: string, want: string): boolean {
  const g = fold(got);
  if (g.length < 2) return false;
  return want
    .split(/[;()]/)
    .map(fold)
    .filter((name) => name.length >= 2)
    .some((name) => ` ${g} `.includes(` ${name} `) || ` ${name} `.includes(` ${g} `) || g.replace(/ /g, '') === name.replace(/ /g, ''));
}

function same(comparison: FieldComparison, got: string | number | boolean, want: string): boolean {
  switch (comparison) {
    case 'amount':
      return Math.abs(Number(got) - Number(want)) < 0.006;
    case 'date':
      return got === want;
    case 'account':
      return String(got).toLowerCase().replace(/[\s-]/g, '') === want.toLowerCase().replace(/[\s-]/g, '');
    case 'name':
      return sameName(String(got), want);
  }
}

/**
 * Reads every document of the folder as an upload is read (text layer, OCR where a page has none, ten pages at
 * most; one OCR worker for the run), extracts with the template given, and scores each field.
 */
async function measureCorpusFields(folder: 'payslips' | 'statements', template: ExtractDocumentType, fields: Record<string, FieldComparison>): Promise<CorpusFields> {
  const names = readdirSync(join(root, folder)).filter((name) => name.endsWith('.truth.json')).sort();
  const scores = Object.fromEntries(Object.keys(fields).map((field) => [field, { right: 0, of: 0 }])) as Record<string, FieldScore>;
  const lines: string[] = [];
  const ocr = openOcrSession();
  try {
    for (const name of names) {
      const truth = JSON.parse(readFileSync(join(root, folder, name), 'utf8')) as Record<string, unknown> & { file: string };
      const bytes = new Uint8Array(readFileSync(join(root, folder, truth.file)));
      const type = kinds[truth.file.split('.').at(-1)!.toLowerCase()]!;
      const document: IntakeDocument = { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: type.kind, mime: type.mime, filename: truth.file };
      const read = await readDocument(document, { maxPages: 10, renderScale: 2, ocr: true }, ocr);
      const result = await extractFromRead(document, read, extractRequestOptions.parse({ template }), {});
      for (const [field, comparison] of Object.entries(fields)) {
        const want = truth[field];
        const got = result.fields[field]?.value ?? null;
        if (typeof want !== 'string') continue;
        scores[field]!.of++;
        const right = got !== null && same(comparison, got, want);
        if (right) scores[field]!.right++;
        lines.push(`${right ? 'right' : 'wrong'} ${truth.file} ${field}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
    }
  } finally {
    await ocr.close();
  }
  return { documents: names.length, scores, lines };
}

/** Each field's share right, named `<field>`, and how many documents have it, `<field>_documents`. */
function fieldFigures(scores: Record<string, FieldScore>): Record<string, number> & { all_fields: number } {
  const figures: Record<string, number> & { all_fields: number } = { all_fields: 0 };
  for (const [field, score] of Object.entries(scores)) {
    figures[field] = score.right / Math.max(1, score.of);
    figures[`${field}_documents`] = score.of;
  }
  const all = Object.values(scores).reduce((sum, score) => ({ right: sum.right + score.right, of: sum.of + score.of }), { right: 0, of: 0 });
  figures.all_fields = all.right / Math.max(1, all.of);
  return figures;
}

/**
 * Reads a corpus folder with a template, prints each field's score and every document's line under `title`, and
 * gives the figures a measured file records: the document count and `fieldFigures`.
 */
export async function measureAndPrintCorpusFields(
  title: string,
  folder: 'payslips' | 'statements',
  template: ExtractDocumentType,
  fields: Record<string, FieldComparison>,
): Promise<{ documents: number; figures: Record<string, number> }> {
  const started = Date.now();
  const measured = await measureCorpusFields(folder, template, fields);
  const figures = { documents: measured.documents, ...fieldFigures(measured.scores) };
  process.stdout.write(
    [
      `${title} (${measured.documents} files, read in ${((Date.now() - started) / 1000).toFixed(0)} s):`,
      `  ${Object.entries(measured.scores).map(([field, score]) => `${field} ${score.right}/${score.of}`).join(', ')}; all fields ${figures.all_fields.toFixed(3)}`,
      ...measured.lines.map((line) => `    ${line}`),
      '',
    ].join('\n'),
  );
  return { documents: measured.documents, figures };
}
