import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { analyseExtraction } from '../api/checkers/extract/analyse.ts';
import type { ExtractDocumentType } from '../api/checkers/extract/classify.ts';
import { extractRequestOptions } from '../api/checkers/extract/options.ts';
import type { ExtractionResult } from '../api/checkers/extract/result.ts';
import type { DocumentKind } from '../api/documents/types.ts';
import { recordMeasured } from './helpers/measured.ts';
import { type CorpusLabels, type FieldValue, generateExtractionCorpus } from './helpers/extraction-corpus.ts';

/**
 * Field precision and recall of extraction on the labelled corpus (fixtures/documents/extraction/corpus):
 * 64 text-layer PDFs over the five templates and 20 scans of some of them (JPEG images and image-only
 * PDFs, read by OCR; about 30 pages, ~1–3 s a page here, so this file takes one to three minutes).
 */
const corpus = new URL('../fixtures/documents/extraction/corpus/', import.meta.url);
const labels = JSON.parse(await readFile(new URL('labels.json', corpus), 'utf8')) as CorpusLabels;
const floors = { text_layer: 0.95, scans: 0.85 };

interface Tally {
  correct: number;
  extracted: number;
  expected: number;
}

function sameValue(got: ExtractionResult['fields'][string]['value'], want: FieldValue): boolean {
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(got - want) < 0.005;
  return typeof got === 'string' && got.replace(/\s+/g, ' ').trim().toLowerCase() === want.toLowerCase();
}

/** A wrong value counts against both figures: it is an extraction that is not right and a right value missed. */
function score(tally: Tally, result: ExtractionResult, truth: Record<string, FieldValue>): string[] {
  const misses: string[] = [];
  tally.extracted += Object.keys(result.fields).length;
  tally.expected += Object.keys(truth).length;
  for (const [name, want] of Object.entries(truth)) {
    if (result.fields[name] && sameValue(result.fields[name].value, want)) tally.correct++;
    else misses.push(`${name}: want ${JSON.stringify(want)}, got ${JSON.stringify(result.fields[name]?.value ?? null)}`);
  }
  for (const name of Object.keys(result.fields)) if (!(name in truth)) misses.push(`${name}: not on the document, got ${JSON.stringify(result.fields[name]!.value)}`);
  return misses;
}

async function extract(file: string, kind: DocumentKind, mime: string, template: ExtractDocumentType | undefined, country: string): Promise<ExtractionResult> {
  const bytes = new Uint8Array(await readFile(new URL(file, corpus)));
  const options = extractRequestOptions.parse({ ...(template ? { template } : {}), country });
  return analyseExtraction([{ bytes, kind, mime, sha256: '0'.repeat(64), filename: null }], options, { now: '2026-06-01T00:00:00.000Z' });
}

/**
 * Prints one row per template and the whole, and returns the rows under the floor and the figures
 * measured/extract-generated-*.json keep: the whole, and the weakest template's precision and recall.
 */
function report(title: string, tallies: Map<string, Tally>, floor: number): { below: string[]; figures: Record<string, number> } {
  const all: Tally = { correct: 0, extracted: 0, expected: 0 };
  const below: string[] = [];
  const figures = { precision: 0, recall: 0, weakest_template_precision: 1, weakest_template_recall: 1 };
  const rows = [...tallies].map(([template, tally]) => {
    all.correct += tally.correct;
    all.extracted += tally.extracted;
    all.expected += tally.expected;
    return [template, tally] as const;
  });
  console.log(`\n${title}: field precision and recall (floor ${floor})`);
  for (const [name, tally] of [...rows, ['all', all] as const]) {
    const precision = tally.correct / tally.extracted;
    const recall = tally.correct / tally.expected;
    console.log(`  ${name.padEnd(15)} precision ${precision.toFixed(3)}  recall ${recall.toFixed(3)}  (${tally.correct} right of ${tally.extracted} extracted, ${tally.expected} labelled)`);
    if (precision < floor || recall < floor) below.push(name);
    if (name === 'all') Object.assign(figures, { precision, recall });
    else Object.assign(figures, { weakest_template_precision: Math.min(figures.weakest_template_precision, precision), weakest_template_recall: Math.min(figures.weakest_template_recall, recall) });
  }
  return { below, figures };
}

const GENERATED_TRUTH = 'Each field labelled by the generator that wrote the document (test/helpers/extraction-corpus.ts): the figures say the code reads what the generator makes.';
const perTemplateFloors = (floor: number) => ({ weakest_template_precision: floor, weakest_template_recall: floor });

function tallyFor(tallies: Map<string, Tally>, template: string): Tally {
  let tally = tallies.get(template);
  if (!tally) tallies.set(template, (tally = { correct: 0, extracted: 0, expected: 0 }));
  return tally;
}

test('the committed corpus is what the generator makes: 64 documents over the five templates, 20 scans', async () => {
  const generated = await generateExtractionCorpus();
  assert.deepEqual(
    generated.map(({ pdf: _pdf, ...document }) => ({ ...document, file: `text-layer/${document.id}.pdf` })),
    labels.documents,
  );
  for (const document of generated) assert.deepEqual(new Uint8Array(await readFile(new URL(`text-layer/${document.id}.pdf`, corpus))), document.pdf, document.id);
  assert.equal(new Set(labels.documents.map((document) => document.template)).size, 5);
  assert.ok(labels.scans.length >= 20);
});

test(`text-layer PDFs, template given and classified: precision and recall of at least ${floors.text_layer} per template`, async () => {
  const measured: Record<string, number> = { documents: labels.documents.length };
  for (const classified of [false, true]) {
    const tallies = new Map<string, Tally>();
    const misclassified: string[] = [];
    for (const document of labels.documents) {
      const result = await extract(document.file, 'pdf', 'application/pdf', classified ? undefined : document.template, document.country);
      if (result.document_type !== document.template) misclassified.push(`${document.id} as ${result.document_type}`);
      const misses = score(tallyFor(tallies, document.template), result, document.truth);
      if (misses.length > 0) console.log(`  ${document.id} (${document.layout}): ${misses.join('; ')}`);
    }
    const { below, figures } = report(classified ? 'Text layer, type classified' : 'Text layer, template given', tallies, floors.text_layer);
    assert.deepEqual(misclassified, []);
    assert.deepEqual(below, [], `under ${floors.text_layer}: ${below.join(', ')}`);
    for (const [name, value] of Object.entries(figures)) measured[`${classified ? 'classified' : 'template_given'}_${name}`] = value;
    measured[`${classified ? 'classified' : 'template_given'}_misclassified`] = misclassified.length;
  }
  recordMeasured('extract-generated-text-layer', {
    corpus: `fixtures/documents/extraction/corpus (${labels.documents.length} generated text-layer PDFs in 12 layouts over the five templates)`,
    truth: GENERATED_TRUTH,
    figures: measured,
    floors: Object.fromEntries(Object.entries(perTemplateFloors(floors.text_layer)).flatMap(([name, floor]) => [[`template_given_${name}`, floor], [`classified_${name}`, floor]])),
  });
});

// About 70 s alone; OCR of 30 pages beside the rest of the suite on two busy cores once passed the suite's 240 s default.
test(`scans read by OCR, template given: precision and recall of at least ${floors.scans} per template`, { timeout: 600_000 }, async () => {
  const documents = new Map(labels.documents.map((document) => [document.id, document]));
  const tallies = new Map<string, Tally>();
  for (const scan of labels.scans) {
    const document = documents.get(scan.from)!;
    const result = await extract(scan.file, scan.kind, scan.mime, document.template, document.country);
    assert.ok(result.capabilities_used.includes('read.ocr'), `${scan.id} was read by OCR`);
    const misses = score(tallyFor(tallies, document.template), result, document.truth);
    if (misses.length > 0) console.log(`  ${scan.id} (${document.layout}): ${misses.join('; ')}`);
  }
  const { below, figures } = report('Scans (OCR)', tallies, floors.scans);
  assert.deepEqual(below, [], `under ${floors.scans}: ${below.join(', ')}`);
  recordMeasured('extract-generated-scans', {
    corpus: `fixtures/documents/extraction/corpus (${labels.scans.length} degraded scans of the generated documents, JPEG images and image-only PDFs read by OCR)`,
    truth: GENERATED_TRUTH,
    figures: { scans: labels.scans.length, ...figures },
    floors: perTemplateFloors(floors.scans),
  });
});
