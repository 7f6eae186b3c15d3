import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TRADE_MODEL_FILE, fitOn, modelText, realNotices, shippedModel, writtenNotices, type RealNotice } from '../scripts/fit-trade-model.ts';
import { recordMeasured } from '../test/helpers/measured.ts';
import { tradeScorer } from './trade-model.ts';
import { TRADES, classifyTrade } from './trades.ts';

/**
 * The trade classifier measured on real titles it was not fitted on: ten folds of the hand-labelled real
 * AU/NZ, UK and Irish titles (fold by a hash of the title), each predicted by a model fitted on the other nine, the
 * written titles and the taxonomy's codes: the held-out fold's titles, summaries, codes, buyers and labels (its
 * `also` too) reach no fit. A prediction is right when it is the labelled trade or one the label accepts (`also`).
 */
const FOLDS = 10;
/** The precision and recall the site issue asks of each trade. */
const ISSUE_FLOOR = 0.85;
/**
 * The trade figures that meet the issue's 0.85 and are held there: a figure that falls below fails, and one that
 * rises to it fails until it is added here (data/README.md lists the trades below it with their figures).
 */
const HELD_AT_ISSUE_FLOOR = {
  precision: ['building-construction', 'electrical', 'plumbing', 'mechanical-hvac', 'cleaning', 'security', 'it-services', 'telecommunications', 'consulting', 'engineering', 'architecture', 'environmental', 'waste', 'water-utilities', 'legal', 'finance-audit', 'transport-logistics', 'catering-food', 'furniture-supplies', 'printing', 'recruitment-hr', 'landscaping-grounds', 'community-services'],
  recall: ['cleaning', 'legal', 'finance-audit', 'printing', 'recruitment-hr'],
};
/** Overall, the levels measured today, kept from falling. */
const OVERALL_FLOORS = { precision: 0.89, recall: 0.76 };
const real = realNotices();
const written = writtenNotices();
type Scored = { notice: RealNotice; predicted: string | null };
const accepted = ({ notice, predicted }: Scored) => predicted !== null && (predicted === notice.trade || notice.also.includes(predicted));

const foldOf = (notice: RealNotice) => createHash('sha1').update(notice.title).digest()[0]! % FOLDS;

function crossValidated(): Scored[] {
  const out: Scored[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const scorer = tradeScorer(fitOn([...real.filter((notice) => foldOf(notice) !== fold), ...written], `fold ${fold}`));
    for (const notice of real.filter((candidate) => foldOf(candidate) === fold)) out.push({ notice, predicted: classifyTrade({ title: notice.title, summary: notice.summary ?? null, category: notice.unspsc ?? null, buyer: notice.buyer ?? null }, scorer) });
  }
  return out;
}

test('the taxonomy has about thirty trades with unique ids, and every labelled trade exists', () => {
  assert.ok(TRADES.length >= 28 && TRADES.length <= 36, `${TRADES.length} trades`);
  assert.equal(new Set(TRADES.map((trade) => trade.id)).size, TRADES.length);
  for (const trade of [...real.flatMap((notice) => [notice.trade, ...notice.also]), ...written.map((notice) => notice.trade)]) if (trade) assert.ok(TRADES.some((known) => known.id === trade), trade);
});

test('the shipped model is the one fitted on the labelled titles (npm run fit:trades)', () => {
  assert.equal(readFileSync(TRADE_MODEL_FILE, 'utf8'), modelText(shippedModel()));
});

/** Precision over the titles given a trade, recall over the titles labelled with one, overall and per trade. */
function figuresOf(results: Scored[]) {
  const predicted = results.filter((result) => result.predicted !== null);
  const labelled = results.filter((result) => result.notice.trade !== null);
  const perTrade: Record<string, number> = {};
  const lines: string[] = [];
  let weakest = { precision: 1, recall: 1 };
  for (const trade of TRADES) {
    const claimed = predicted.filter((result) => result.predicted === trade.id);
    const truth = labelled.filter((result) => result.notice.trade === trade.id);
    const precision = claimed.length ? claimed.filter(accepted).length / claimed.length : 1;
    const recall = truth.length ? truth.filter(accepted).length / truth.length : 1;
    weakest = { precision: Math.min(weakest.precision, precision), recall: Math.min(weakest.recall, recall) };
    perTrade[`${trade.id}.precision`] = precision;
    perTrade[`${trade.id}.recall`] = recall;
    lines.push(`${trade.id.padEnd(26)} precision ${precision.toFixed(2)} (${claimed.length} claimed)  recall ${recall.toFixed(2)} (${truth.length} labelled)`);
  }
  const overall = { titles: results.length, precision: predicted.filter(accepted).length / predicted.length, recall: labelled.filter(accepted).length / labelled.length };
  return { overall, weakest, perTrade, lines };
}

test('trade precision and recall on real titles, cross-validated, per trade and overall', (t) => {
  const results = crossValidated();
  const { overall, weakest, perTrade, lines } = figuresOf(results);
  // The titles labelled after the rules were last revised: no rule was changed after reading their errors.
  const unseen = figuresOf(results.filter((result) => result.notice.unseen_by_rules)).overall;
  const figures = { ...overall, weakest_trade_precision: weakest.precision, weakest_trade_recall: weakest.recall, ...perTrade, 'unseen_by_rules.titles': unseen.titles, 'unseen_by_rules.precision': unseen.precision, 'unseen_by_rules.recall': unseen.recall };
  t.diagnostic(`trade classifier, ${FOLDS}-fold cross-validated on ${real.length} real titles: precision ${overall.precision.toFixed(3)}, recall ${overall.recall.toFixed(3)}; on the ${unseen.titles} labelled after the rules were last revised: precision ${unseen.precision.toFixed(3)}, recall ${unseen.recall.toFixed(3)}\n${lines.join('\n')}`);
  const held = [...HELD_AT_ISSUE_FLOOR.precision.map((trade) => `${trade}.precision`), ...HELD_AT_ISSUE_FLOOR.recall.map((trade) => `${trade}.recall`)];
  recordMeasured('trades', {
    corpus: `fixtures/corpora/trade-titles (${real.length} real AU/NZ, UK and Irish notice titles; practice entries left out), ${FOLDS}-fold cross-validated`,
    truth: 'Each title labelled by hand with the trade a small business would file it under, from its title, summary and UNSPSC code, without running the classifier (fixtures/corpora/trade-titles/README.md).',
    figures,
    floors: {
      // Overall: the level measured today, kept from falling (the issue sets its 0.85 for each trade).
      precision: OVERALL_FLOORS.precision,
      recall: OVERALL_FLOORS.recall,
      ...Object.fromEntries(held.map((name) => [name, ISSUE_FLOOR])),
    },
  });
  const reaching = Object.entries(perTrade).filter(([, value]) => value >= ISSUE_FLOOR).map(([name]) => name);
  assert.deepEqual(reaching.filter((name) => !held.includes(name)), [], 'these trade figures now reach the issue floor: hold them in HELD_AT_ISSUE_FLOOR');
});

/**
 * The wrong trades the site issue names: a water-treatment plant upgrade, a GP incentive grant and a
 * power-system restart service were filed under IT services. Each is checked with the shipped model and
 * with one fitted without that title, so the answer is not the title remembered.
 */
test('a water-treatment upgrade, a GP grant and a power-system restart are not IT services', () => {
  const named = { 'WT25-25/26 Pechey PAC Dosing and WTP Upgrades': 'water-utilities', 'General Practice Incentive Fund': 'health', 'Call for Submissions: System Restart Service – North Metro Sub-network of the SWIS': 'electrical' };
  for (const [title, trade] of Object.entries(named)) {
    const notice = real.find((candidate) => candidate.title === title)!;
    assert.equal(notice.trade, trade, title);
    const input = { title: notice.title, summary: notice.summary ?? null, category: notice.unspsc ?? null, buyer: notice.buyer ?? null };
    assert.equal(classifyTrade(input), trade, title);
    const unseen = tradeScorer(fitOn([...real.filter((candidate) => candidate !== notice), ...written], `without ${title}`));
    assert.notEqual(classifyTrade(input, unseen), 'it-services', title);
  }
});

/**
 * Two trades the fixture night got wrong: an advertising panel published under UNSPSC 81110000 (computer
 * services) went to IT, and a road maintenance tender under the bare segment 72000000 got no trade. Inputs are
 * the records the sources extract from their fixtures (sources/nz_gets.test.ts, sources/au_vic_buying_for_victoria.test.ts).
 * The road tender is in no corpus, so the shipped model has never seen it. The advertising panel is a labelled
 * title: a model fitted without it still says IT, because no other labelled title pairs that code with advertising.
 */
test('the fixture night\'s advertising panel is marketing and its road maintenance tender civil works, whatever their UNSPSC codes say', () => {
  const advertising = { title: 'Online job advertising services', summary: 'MSD is establishing a panel of providers of online job advertising services for its recruitment teams.', category: '81110000' };
  const roads = {
    title: 'Road Maintenance Services – Western Region',
    summary: 'The Department seeks a contractor for routine and reactive maintenance of arterial roads in the Western Region, including pothole repair, line marking and drainage clearing. The contract term is three years with two one-year options.',
    category: '72000000',
  };
  assert.equal(classifyTrade(advertising), 'marketing-communications');
  assert.equal(classifyTrade(roads), 'civil-works');
  assert.ok(!real.some((notice) => notice.title === roads.title), 'the road tender is not a labelled title');
});

test('a UNSPSC code outweighs a loose title word, and a title with nothing in it has no trade', () => {
  assert.equal(classifyTrade({ title: 'Services contract', category: '76111500' }), 'cleaning');
  assert.equal(classifyTrade({ title: 'Panel arrangement' }), null);
});
