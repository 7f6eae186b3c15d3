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
 * AU/NZ titles (fold by a hash of the title), each predicted by a model fitted on the other nine and the
 * written titles. A prediction is right when it is the labelled trade or one the label accepts (`also`).
 */
const FOLDS = 10;
const real = realNotices();
const written = writtenNotices();
const foldOf = (notice: RealNotice) => createHash('sha1').update(notice.title).digest()[0]! % FOLDS;

function crossValidated(): { notice: RealNotice; predicted: string | null }[] {
  const out: { notice: RealNotice; predicted: string | null }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const scorer = tradeScorer(fitOn([...real.filter((notice) => foldOf(notice) !== fold), ...written], `fold ${fold}`));
    for (const notice of real.filter((candidate) => foldOf(candidate) === fold)) out.push({ notice, predicted: classifyTrade({ title: notice.title, summary: notice.summary ?? null, category: notice.unspsc ?? null }, scorer) });
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

test('trade precision and recall on real titles, cross-validated, per trade and overall', (t) => {
  const results = crossValidated();
  const accepted = ({ notice, predicted }: { notice: RealNotice; predicted: string | null }) => predicted !== null && (predicted === notice.trade || notice.also.includes(predicted));
  const predicted = results.filter((result) => result.predicted !== null);
  const labelled = results.filter((result) => result.notice.trade !== null);
  const right = predicted.filter(accepted).length;
  const lines: string[] = [];
  let weakest = { precision: 1, recall: 1 };
  for (const trade of TRADES) {
    const claimed = predicted.filter((result) => result.predicted === trade.id);
    const truth = labelled.filter((result) => result.notice.trade === trade.id);
    const precision = claimed.length ? claimed.filter(accepted).length / claimed.length : 1;
    const recall = truth.length ? truth.filter(accepted).length / truth.length : 1;
    weakest = { precision: Math.min(weakest.precision, precision), recall: Math.min(weakest.recall, recall) };
    lines.push(`${trade.id.padEnd(26)} precision ${precision.toFixed(2)} (${claimed.length} claimed)  recall ${recall.toFixed(2)} (${truth.length} labelled)`);
  }
  const figures = { titles: real.length, precision: right / predicted.length, recall: labelled.filter(accepted).length / labelled.length, weakest_trade_precision: weakest.precision, weakest_trade_recall: weakest.recall };
  t.diagnostic(`trade classifier, ${FOLDS}-fold cross-validated on ${real.length} real titles: precision ${figures.precision.toFixed(3)}, recall ${figures.recall.toFixed(3)}\n${lines.join('\n')}`);
  recordMeasured('trades', {
    corpus: `fixtures/corpora/trade-titles (${real.length} real AU/NZ notice titles; practice entries left out), ${FOLDS}-fold cross-validated`,
    truth: 'Each title labelled by hand with the trade a small business would file it under, from its title, summary and UNSPSC code, without running the classifier (fixtures/corpora/trade-titles/README.md).',
    figures,
    // Below the 0.85 the site issue asks for each trade: the honest level today, kept from falling.
    floors: { precision: 0.82, recall: 0.6 },
  });
});

test('a UNSPSC code outweighs a loose title word, and a title with nothing in it has no trade', () => {
  assert.equal(classifyTrade({ title: 'Services contract', category: '76111500' }), 'cleaning');
  assert.equal(classifyTrade({ title: 'Panel arrangement' }), null);
});
