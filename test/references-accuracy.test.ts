import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readText } from '../api/checkers/read-text.ts';
import { judgeReferences } from '../api/checkers/references/analyse.ts';
import { compareTitles, TITLE_MATCH } from '../api/checkers/references/dois.ts';
import type { FactCheckResult } from '../api/checkers/references/result.ts';
import type { DocumentKind, IntakeDocument } from '../api/documents/types.ts';
import { startFakeProviders, type FakeProviders, type FakeWorld } from './helpers/fake-providers.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * The reference checker measured on its labelled set (fixtures/references/labelled-set.json: seven documents
 * as text, HTML, .docx and PDF, the outside world they cite served by the local fake, and 29 title pairs).
 * Prints each figure and fails under its floor. The set was written alongside the code, so the figures say
 * the checker reads the shapes it was built for, not how it fares on every real document.
 */

interface Expected {
  kind: 'url' | 'doi' | 'citation';
  key: string;
  status: string;
}
interface LabelledSet {
  world: FakeWorld;
  documents: { name: string; kind: 'text' | 'html' | 'docx' | 'pdf'; text: string; expected_references: Expected[]; expected_consistency: { kind: string; stated: number; consistent: boolean }[] }[];
  title_pairs: { claimed: string; registered: string; subtitle: string | null; same_work: boolean }[];
}

const set = JSON.parse(await readFile(new URL('../fixtures/references/labelled-set.json', import.meta.url), 'utf8')) as LabelledSet;

async function asBytes(kind: LabelledSet['documents'][number]['kind'], text: string): Promise<{ bytes: Uint8Array; mime: string; kind: DocumentKind }> {
  if (kind === 'text') return { bytes: new TextEncoder().encode(text), mime: 'text/plain', kind: 'text' };
  if (kind === 'html') return { bytes: new TextEncoder().encode(text), mime: 'text/html', kind: 'html' };
  if (kind === 'docx') {
    const zip = new JSZip();
    const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
    zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
    const paragraphs = text.split('\n').map((line) => `<w:p><w:r><w:t xml:space="preserve">${escape(line)}</w:t></w:r></w:p>`).join('');
    zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`);
    return { bytes: await zip.generateAsync({ type: 'uint8array' }), mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'docx' };
  }
  // A PDF, eight lines to a page so the checker reads across pages; tabs become spaces as a PDF's text layer gives them.
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const lines = text.replace(/\t/g, '  ').split('\n');
  for (let start = 0; start < lines.length; start += 8) {
    const page = pdf.addPage([595, 842]);
    lines.slice(start, start + 8).forEach((line, index) => page.drawText(line, { x: 40, y: 790 - index * 24, size: 9, font }));
  }
  return { bytes: await pdf.save(), mime: 'application/pdf', kind: 'pdf' };
}

const keyOf = (reference: FactCheckResult['references'][number]) => (reference.kind === 'url' ? reference.url : reference.kind === 'doi' ? reference.doi : reference.claimed_title);
const LABELLED_SET = 'fixtures/references/labelled-set.json (seven documents as text, HTML, .docx and PDF citing a local fake of the web, Crossref and the Wayback Machine; 29 title pairs)';
const LABELLED_TRUTH = 'Each reference, status, calculation and title pair labelled by hand, written alongside the code: the figures say it reads the shapes it was built for, not how it fares on documents in the wild.';
const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
const shown = (value: number) => value.toFixed(3);

describe('reference checker on its labelled set', () => {
  let fake: FakeProviders;
  const results = new Map<string, FactCheckResult['references']>();
  const consistency = new Map<string, FactCheckResult['internal_consistency']>();
  before(async () => {
    fake = await startFakeProviders(set.world);
    const services = fake.services();
    for (const labelled of set.documents) {
      const { bytes, mime, kind } = await asBytes(labelled.kind, labelled.text);
      const document: IntakeDocument = { bytes, mime, kind, sha256: labelled.name.padEnd(64, '0').slice(0, 64), filename: labelled.name };
      const read = await readText([document], { html_links: true }, { now: '2026-06-10T02:00:00.000Z' });
      const judged = await judgeReferences(read, { deep: false }, services, { now: new Date('2026-06-10T02:00:00.000Z'), progress: () => {} });
      results.set(labelled.name, judged.result.references);
      consistency.set(labelled.name, judged.result.internal_consistency);
    }
  });
  after(() => fake.close());

  it('finds the references (precision and recall ≥ 0.9) and gives each its labelled status (accuracy ≥ 0.9 per kind)', () => {
    let found = 0;
    let expected = 0;
    let matched = 0;
    const byKind: Record<string, { right: number; total: number }> = { url: { right: 0, total: 0 }, doi: { right: 0, total: 0 }, citation: { right: 0, total: 0 } };
    const misses: string[] = [];
    for (const labelled of set.documents) {
      const references = results.get(labelled.name)!;
      found += references.length;
      expected += labelled.expected_references.length;
      for (const wanted of labelled.expected_references) {
        const reference = references.find((candidate) => candidate.kind === wanted.kind && keyOf(candidate)?.toLowerCase() === wanted.key.toLowerCase());
        if (reference === undefined) {
          misses.push(`${labelled.name}: not found ${wanted.kind} ${wanted.key}`);
          continue;
        }
        matched++;
        byKind[wanted.kind]!.total++;
        if (reference.status === wanted.status) byKind[wanted.kind]!.right++;
        else misses.push(`${labelled.name}: ${wanted.key} is ${reference.status}, labelled ${wanted.status} (${reference.evidence.join(' ')})`);
      }
      for (const reference of references) {
        if (!labelled.expected_references.some((wanted) => wanted.kind === reference.kind && wanted.key.toLowerCase() === keyOf(reference)?.toLowerCase())) misses.push(`${labelled.name}: unexpected ${reference.kind} ${keyOf(reference)}`);
      }
    }
    const precision = ratio(matched, found);
    const recall = ratio(matched, expected);
    console.log(`references: ${expected} labelled in ${set.documents.length} documents; finder precision ${shown(precision)}, recall ${shown(recall)}`);
    for (const [kind, { right, total }] of Object.entries(byKind)) console.log(`  ${kind} status accuracy ${shown(ratio(right, total))} (${right}/${total})`);
    for (const miss of misses) console.log(`  miss: ${miss}`);
    assert.ok(precision >= 0.9 && recall >= 0.9, `finder precision ${precision}, recall ${recall}`);
    for (const [kind, { right, total }] of Object.entries(byKind)) assert.ok(ratio(right, total) >= 0.9, `${kind} status accuracy ${right}/${total}`);
    const statusFigures = Object.fromEntries(Object.entries(byKind).flatMap(([kind, { right, total }]) => [[`${kind}_statuses`, total], [`${kind}_status_accuracy`, ratio(right, total)]]));
    recordMeasured('references-labelled-finder', {
      corpus: LABELLED_SET,
      truth: LABELLED_TRUTH,
      figures: { documents: set.documents.length, labelled: expected, reported: found, found: matched, precision, recall, ...statusFigures },
      floors: { precision: 0.9, recall: 0.9, ...Object.fromEntries(Object.keys(byKind).map((kind) => [`${kind}_status_accuracy`, 0.9])) },
    });
  });

  it('finds the written calculations (recall ≥ 0.85, precision ≥ 0.9) and judges every one it finds as labelled', () => {
    let found = 0;
    let expected = 0;
    let matched = 0;
    let judgedRight = 0;
    const misses: string[] = [];
    for (const labelled of set.documents) {
      const items = consistency.get(labelled.name)!;
      found += items.length;
      expected += labelled.expected_consistency.length;
      for (const wanted of labelled.expected_consistency) {
        const item = items.find((candidate) => candidate.kind === wanted.kind && Math.abs(candidate.stated - wanted.stated) < 1e-9);
        if (item === undefined) {
          misses.push(`${labelled.name}: not found ${wanted.kind} ${wanted.stated}`);
          continue;
        }
        matched++;
        if (item.consistent === wanted.consistent) judgedRight++;
        else misses.push(`${labelled.name}: ${wanted.kind} ${wanted.stated} judged ${item.consistent ? 'consistent' : 'inconsistent'} (${item.explanation})`);
      }
      for (const item of items) {
        if (!labelled.expected_consistency.some((wanted) => wanted.kind === item.kind && Math.abs(item.stated - wanted.stated) < 1e-9)) misses.push(`${labelled.name}: unexpected ${item.kind} “${item.statement}”`);
      }
    }
    console.log(`calculations: ${expected} labelled; found precision ${shown(ratio(matched, found))}, recall ${shown(ratio(matched, expected))}; verdicts right ${judgedRight}/${matched}`);
    for (const miss of misses) console.log(`  miss: ${miss}`);
    assert.ok(ratio(matched, expected) >= 0.85 && ratio(matched, found) >= 0.9, 'calculation precision or recall under its floor');
    assert.equal(judgedRight, matched);
    recordMeasured('references-labelled-calculations', {
      corpus: LABELLED_SET,
      truth: LABELLED_TRUTH,
      figures: { labelled: expected, reported: found, found: matched, precision: ratio(matched, found), recall: ratio(matched, expected), judged_right: judgedRight },
      floors: { precision: 0.9, recall: 0.85 },
    });
  });

  it(`matches titles of the same work by the stated rule (precision ≥ 0.95, recall ≥ 0.85), and prints the ratio alone at ${TITLE_MATCH} beside it`, () => {
    const scored = set.title_pairs.map((pair) => ({ ...pair, ...compareTitles(pair.claimed, { title: pair.registered, subtitle: pair.subtitle }) }));
    const figures = (isMatch: (pair: (typeof scored)[number]) => boolean) => {
      const predicted = scored.filter(isMatch);
      const truePositives = predicted.filter((pair) => pair.same_work).length;
      return { precision: ratio(truePositives, predicted.length), recall: ratio(truePositives, scored.filter((pair) => pair.same_work).length) };
    };
    const rule = figures((pair) => pair.verdict === 'match');
    const ratioAlone = figures((pair) => pair.similarity >= TITLE_MATCH);
    console.log(`titles: ${scored.length} pairs; the rule: precision ${shown(rule.precision)}, recall ${shown(rule.recall)}; the ratio alone at ${TITLE_MATCH}: precision ${shown(ratioAlone.precision)}, recall ${shown(ratioAlone.recall)}`);
    for (const pair of scored.filter((entry) => (entry.verdict === 'match') !== entry.same_work)) console.log(`  ${pair.same_work ? 'missed' : 'false match'}: “${pair.claimed}” ~ “${pair.registered}” ${pair.similarity}`);
    assert.ok(rule.precision >= 0.95 && rule.recall >= 0.85, `title rule: precision ${rule.precision}, recall ${rule.recall}`);
    recordMeasured('references-labelled-titles', {
      corpus: LABELLED_SET,
      truth: LABELLED_TRUTH,
      figures: { pairs: scored.length, rule_precision: rule.precision, rule_recall: rule.recall, ratio_alone_precision: ratioAlone.precision, ratio_alone_recall: ratioAlone.recall },
      floors: { rule_precision: 0.95, rule_recall: 0.85 },
    });
  });
});
