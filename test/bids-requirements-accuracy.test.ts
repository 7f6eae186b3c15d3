import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractRequirements, requirementKinds, type ExtractedRequirement } from '../api/bids/requirements/extract.ts';
import { recordMeasured } from './helpers/measured.ts';
import { labelledDocuments, matchLabels, readFixturePages, type LabelledDocument } from './helpers/bid-requirements-set.ts';

/**
 * Requirement extraction measured on the ten labelled tender documents of fixtures/bids/ (text, .docx and PDF,
 * read through the same document readers as a bid's files). Recall of mandatory requirements counts a mandatory
 * label as found only when an extraction covers it and is itself marked mandatory. Seven documents were used
 * while writing the rules; the three held out are reported on their own.
 */
const recallFloor = 0.9;
/** Issue 26's floors for requirement extraction on real tenders, held on these documents too. */
const precisionFloor = 0.9;
const weightFloor = 0.9;

interface Tally {
  mandatoryLabels: number;
  mandatoryFound: number;
  labels: number;
  extracted: number;
  matched: number;
  weights: number;
  weightsRight: number;
  kinds: Map<string, { labels: number; extracted: number; right: number }>;
  misses: string[];
}

function emptyTally(): Tally {
  return { mandatoryLabels: 0, mandatoryFound: 0, labels: 0, extracted: 0, matched: 0, weights: 0, weightsRight: 0, kinds: new Map(requirementKinds.map((kind) => [kind, { labels: 0, extracted: 0, right: 0 }])), misses: [] };
}

function score(tally: Tally, document: LabelledDocument, found: ExtractedRequirement[]): void {
  const matched = matchLabels(document.requirements, found);
  tally.labels += document.requirements.length;
  tally.extracted += found.length;
  tally.matched += matched.size;
  for (const extracted of found) tally.kinds.get(extracted.kind)!.extracted++;
  for (const label of document.requirements) {
    const extracted = matched.get(label);
    const kind = tally.kinds.get(label.kind)!;
    kind.labels++;
    if (extracted?.kind === label.kind) kind.right++;
    if (label.weight !== null) {
      tally.weights++;
      if (extracted?.weight === label.weight) tally.weightsRight++;
    }
    if (!label.mandatory) continue;
    tally.mandatoryLabels++;
    if (extracted?.mandatory) tally.mandatoryFound++;
    else tally.misses.push(`${document.document} p${label.page}: ${extracted ? 'found but not mandatory' : 'missed'}: ${label.text.replace(/\s+/g, ' ').slice(0, 90)}`);
  }
  const taken = new Set(matched.values());
  for (const extracted of found) if (!taken.has(extracted)) tally.misses.push(`${document.document} p${extracted.source.page}: not a labelled requirement (${extracted.kind}): ${extracted.text.slice(0, 90)}`);
}

const ratio = (part: number, whole: number): string => (whole === 0 ? '-' : (part / whole).toFixed(2));

function report(title: string, tally: Tally): number {
  const recall = tally.mandatoryFound / tally.mandatoryLabels;
  console.log(`\n${title}`);
  console.log(`  mandatory recall ${ratio(tally.mandatoryFound, tally.mandatoryLabels)} (${tally.mandatoryFound}/${tally.mandatoryLabels})`);
  console.log(`  precision ${ratio(tally.matched, tally.extracted)} (${tally.matched}/${tally.extracted}), recall of all labels ${ratio(tally.matched, tally.labels)} (${tally.matched}/${tally.labels})`);
  console.log(`  criterion weights right ${ratio(tally.weightsRight, tally.weights)} (${tally.weightsRight}/${tally.weights})`);
  for (const [kind, counts] of tally.kinds) console.log(`  ${kind.padEnd(9)} recall ${ratio(counts.right, counts.labels)} (${counts.right}/${counts.labels}), precision ${ratio(counts.right, counts.extracted)} (${counts.right}/${counts.extracted})`);
  for (const miss of tally.misses) console.log(`    ${miss}`);
  return recall;
}

test('requirement extraction finds at least 90% of the mandatory requirements of the labelled tender documents', async () => {
  const documents = await labelledDocuments();
  assert.ok(documents.length >= 10, 'the labelled set holds at least ten documents');
  const development = emptyTally();
  const heldOut = emptyTally();
  const whole = emptyTally();
  for (const document of documents) {
    const file = await readFixturePages(document);
    const found = extractRequirements([file]);
    for (const extracted of found) {
      const page = file.pages.find((candidate) => candidate.n === extracted.source.page)!;
      assert.equal(page.text.slice(extracted.source.start, extracted.source.end).replace(/\s+/g, ' ').trim(), extracted.text, `${document.document}: a requirement's span holds its text`);
    }
    score(document.held_out ? heldOut : development, document, found);
    score(whole, document, found);
  }
  report('Seven documents the rules were written on', development);
  report('Three documents held out until the rules were settled', heldOut);
  const recall = report('All ten documents', whole);
  assert.ok(recall >= recallFloor, `mandatory recall ${recall.toFixed(2)} is under ${recallFloor}`);
  recordMeasured('bids-fixtures', {
    corpus: `fixtures/bids (${documents.length} tender documents generated from the structure of AU and NZ approaches to market: text, .docx and PDF)`,
    truth: 'Every requirement labelled by hand by the person who wrote the documents and the rules: the figures say which patterns the rules read, not how they fare on tenders written by others.',
    figures: {
      documents: documents.length,
      mandatory_labels: whole.mandatoryLabels,
      mandatory_found: whole.mandatoryFound,
      mandatory_recall: recall,
      extracted: whole.extracted,
      extracted_labelled: whole.matched,
      precision: whole.matched / whole.extracted,
      weights: whole.weights,
      weights_right: whole.weightsRight,
      weights_right_rate: whole.weightsRight / whole.weights,
      held_out_mandatory_recall: heldOut.mandatoryFound / heldOut.mandatoryLabels,
    },
    floors: { mandatory_recall: recallFloor, precision: precisionFloor, weights_right_rate: weightFloor },
  });
});
