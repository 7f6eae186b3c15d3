import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { extractRequirements } from '../api/bids/requirements/extract.ts';
import { checkerAnalyses } from '../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisPool } from '../api/checkers/_runner/pool.ts';
import { recordMeasured } from './helpers/measured.ts';
import { addScore, emptyScore, EXTRACTION_COVERAGE, LABEL_COVERAGE, ratio, readAsUploaded, scoreDocument, tenderDocuments, type TenderScore } from './helpers/tender-corpus.ts';

/**
 * Issue 26 part 3: the bid requirement reader on the 27 real tender documents of fixtures/corpora/tenders/
 * (README there), each read as a bid upload reads it (intake, `readFilePages` in an analysis process) and
 * handed to `extractRequirements`. Matching rule and figures: test/helpers/tender-corpus.ts.
 */

/**
 * The labels were committed before any rule was changed for them (commit 00ce97b; the two AU Digital Marketplace
 * templates, `dta-*`, in the commit that added them, before the reader was run on them). Their hashes are held here
 * so that a changed label fails this test: a label that is wrong is reported, never edited to fit the rules.
 */
const LABEL_SHA256: Readonly<Record<string, string>> = {
  '18f-ads-bpa-ads_rfq_final.pdf': 'eb4d77b89c83971b3386fa3776627609238bf48dba34f398c526f1883a33c72e',
  '18f-bpa-disaster-data-portal-pilot-001_rfq.md': 'efec805b79b508ba597ce80fe9e6e69d6e1e36f0c9d7b4a20e1a593c9e9f82d1',
  '18f-bpa-dos-talentmap-attachment1_rfq.md': '163549f7541bdd12de3e9878801d2d3fc7f3acf6e4465cca6be7d8d0f992732f',
  '18f-bpa-fedramp-dashboard-rfq.md': 'e1bd2558d4fd337aac65aadcdc6836738d35a363c0d661dcc6ba6f35afde3814',
  '18f-bpa-fs-epermit-api-rfq.md': '5f00728a96c972412d7494dc51a67b8de4a7caaf71ea822e9774d38399b163d0',
  '18f-bpa-identity-management-rfq.md': 'a2789c50032910dfd53e34ce2b5728c57c851e24bb612e2acb37cc7c2869c69a',
  '18f-bpa-opm-eqip-rfq.md': '335cbf9c9751f910dba5e8d54f219e7bc224e929784eacf059d5c8b3c64918da',
  '18f-ddp-sf1449.pdf': '21a4013ccc0624803fc42e7fb7efafd5ce585051c944c857fd541c4445e5405e',
  '18f-ddp-sf30_001.pdf': 'cb4466f3ea5be08bf2d0936ef57710614c3b2094e25ef8dd5849475a77ea35a6',
  'ak-aries-autorenewals-attachment-03-proposal-evaluation-form.pdf': '152d1bf47fb9f6218661f1b5c10cffc95e8271cc6440200a65fde99505cdd9d8',
  'ak-aries-support-attachment-02-rfp-checklist.pdf': 'ea0ae0f32ced6b8d44772ed07f23ada2c71394815687e88e93dd8a20b7a6b128',
  'ak-aries-support-attachment-03-proposal-evaluation-form.pdf': '284030990b85cd0e8a9e254fce94fec8616b11d553026b775740d8407a3a6a74',
  'ak-aries-support-attachment-04-certification-regarding-debarment.pdf': '2a9f0395b3c3cdc044eae482135568eebd593c62fc3e596fea225565d2db9e09',
  'ak-ies-m2-00-rfp-2025-1600-0188-amendment-1.pdf': '448e7414ecdecfdf9ad7fbfd7f890c2778be7bebb06d6e17a4a8a20470a0a98c',
  'ak-ies-m2-01-submittal-forms-a-h.docx': 'f85079993f3afd02ffe2df6185800764d9e41f610f37bc113163454af9f73f5f',
  'ak-ies-m2-06-non-disclosure-agreement-and-intent-to-propose.pdf': 'bf9dab5d870523422ff065d9c2e0f00591456341db591ac4e26e832e7d3d2082',
  'ak-ies-m2-07-quality-assuance-plan-qap-and-service-level-agreement-sla.pdf': '981fd7e3fd7222b36c129350b8ac8a3162d2bbd84c66e405989a335ded50af16',
  'ccs-crown-marketplace-attachment-1-about-the-direct-award-v3.0.pdf': 'bd2559fcc77dc3bcad9128ea278bafe4e7fd64f5ea456cab0ae435d4d346cb61',
  'ccs-crown-marketplace-joint-schedule-6-key-subcontractors-da-v3.0.pdf': '93ded7935cc472167f400853f7cdf599fdab75c1e95bf7c32f98f11d980d7ef8',
  'dta-requirements-document-template.docx': '88990d4cf2b31b0220613bb4fd284a46ad5ffccaf1b14b5a7ba55eea7c60e6b0',
  'dta-response-template.docx': '820cf7c284fb04f933ccb464153fcb80dca883e5e26d2a24d9cdb1ff380126d8',
  'gsa-cic-irs-cloud-services-rfi.docx': '1eb52e063479594ea5a48684395cbff547cd8543db87233ab3048c84623c1ed4',
  'gsa-cic-payroll-saas-rfq-soo.docx': '6c249249463f53a37d4a2cc2c6b6c2f8d0af05279e7e12c23a215ae61bd56e88',
  'gsa-cic-rfq-template.docx': 'd977adf69c9feff15f2c6dbdc5cdca3dd4b27f25123d4ded1962b6f884b83803',
  'usds-techfar-agile-task-order-example.docx': '113f2c45574d4e634976e074f3f4ab9077be16c903cea81b326194a3751251dc',
  'usds-techfar-crmtaskorder-sample-draft.docx': 'cb76f019d6522e415b3d7ea6cfe37839835410c1d902d66f8c7486240ab44c46',
  'usds-techfar-sources-sought.docx': '4fc7e7982c8097d55ac48ae0bfb19f052aef0fa7e29d9071baf76d1dbf7883c3',
};

/**
 * The issue's floors: 0.90 each, no instruction turned into a gap. What is left of the false positives are mostly
 * sentences with must/shall the labels do not count as requirements (contract mechanics, the buyer's own duties,
 * boilerplate the labeller left out) and cells of PDF layouts; the per-document figures below say where.
 */
const ISSUE_FLOOR = 0.9;
const FLOORS = { mandatory_recall: ISSUE_FLOOR, mandatory_precision: ISSUE_FLOOR, criteria_right_weight: ISSUE_FLOOR, schedules_own_row: ISSUE_FLOOR } as const;

let pool: AnalysisPool;
before(() => {
  pool = createAnalysisPool({ analyses: { read_text: checkerAnalyses['read_text']! }, size: 1 });
});
after(() => pool.close());

const fixed = (value: number) => value.toFixed(2);

function row(name: string, score: TenderScore): string {
  return [
    name.padEnd(72),
    `${fixed(ratio(score.mandatoryLabelsFound, score.mandatoryLabels))} ${`${score.mandatoryLabelsFound}/${score.mandatoryLabels}`.padEnd(8)}`,
    `${fixed(ratio(score.mandatoryExtractedRight, score.mandatoryExtracted))} ${`${score.mandatoryExtractedRight}/${score.mandatoryExtracted}`.padEnd(8)}`,
    `${score.criteriaRightWeight}/${score.criteria}`.padEnd(6),
    `${score.schedulesOwnRow}/${score.schedules}`.padEnd(6),
    `${score.instructionsAsGaps}/${score.instructions}`,
  ].join('  ');
}

test('real tender documents: mandatory requirements, weighted criteria, schedules and instructions (issue 26 part 3)', async () => {
  const documents = tenderDocuments();
  assert.deepEqual(
    Object.fromEntries(documents.map((document) => [document.truth.file, document.truthSha256])),
    LABEL_SHA256,
    'the labels differ from those committed before the rules were changed for them: report a wrong label, do not edit it',
  );
  const total = emptyScore();
  const rows: string[] = [];
  for (const { truth } of documents) {
    const file = await readAsUploaded(pool, truth.file);
    const found = extractRequirements([file]);
    for (const extracted of found) {
      const page = file.pages.find((candidate) => candidate.n === extracted.source.page)!;
      assert.equal(page.text.slice(extracted.source.start, extracted.source.end).replace(/\s+/g, ' ').trim(), extracted.text, `${truth.file}: a requirement's text is the verbatim slice of its page`);
    }
    const score = scoreDocument(truth, found);
    rows.push(row(truth.file, score));
    addScore(total, score);
  }
  console.log(`\nMatching: same page; the extraction holds >= ${LABEL_COVERAGE * 100}% of the label's word pairs and >= ${EXTRACTION_COVERAGE * 100}% of its own are the label's; one to one.`);
  console.log(['document'.padEnd(72), 'mand. recall ', 'mand. prec.  ', 'crit. ', 'sched.', 'instr. as gaps'].join('  '));
  for (const line of rows) console.log(line);
  console.log(row(`all ${documents.length} documents`, total));
  if (process.env['TENDER_CORPUS_MISSES'] === '1') for (const miss of total.misses) console.log(`  ${miss}`);
  const figures = {
    documents: documents.length,
    mandatory_labels: total.mandatoryLabels,
    mandatory_recall: ratio(total.mandatoryLabelsFound, total.mandatoryLabels),
    mandatory_extracted: total.mandatoryExtracted,
    mandatory_precision: ratio(total.mandatoryExtractedRight, total.mandatoryExtracted),
    criteria: total.criteria,
    criteria_right_weight_count: total.criteriaRightWeight,
    criteria_right_weight: ratio(total.criteriaRightWeight, total.criteria),
    schedules: total.schedules,
    schedules_own_row_count: total.schedulesOwnRow,
    schedules_own_row: ratio(total.schedulesOwnRow, total.schedules),
    instructions: total.instructions,
    instructions_as_gaps: total.instructionsAsGaps,
  };
  recordMeasured('bids-tenders', {
    corpus: `fixtures/corpora/tenders (${documents.length} real tender documents: US federal and state, UK CCS, AU Digital Marketplace; PDF, .docx, Markdown)`,
    truth: 'Every requirement, criterion (with weight), schedule and instruction labelled by hand from the extracted text, committed before the rules were changed for them (fixtures/corpora/tenders/README.md).',
    figures,
    floors: { ...FLOORS, 'max:instructions_as_gaps': 0 },
  });
});
