import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awardRow, seedIntelStore } from '../../test/helpers/intel-seed.ts';
import { ANONYMOUS } from './context.ts';
import { tradeById, tradePairs, tradeStateIntelligence } from './trades.ts';

const RUN_AT = '2026-09-25T01:00:00.000Z';

test('trade figures follow the clock: the index is rebuilt when the day changes', async () => {
  const store = await seedIntelStore({
    awards: [
      awardRow({ contract_id: 'A', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', end_date: '2026-10-10', awarded_date: '2026-01-10' }),
      awardRow({ contract_id: 'B', jurisdiction: 'AU-NSW', buyer: 'Transport for NSW', end_date: '2027-02-10', awarded_date: '2026-02-10' }),
    ],
  }, RUN_AT);
  try {
    const civil = tradeById('civil-works')!;
    const onRunDay = { store, computedAt: RUN_AT, now: new Date(RUN_AT), registry: [] };
    const first = await tradeStateIntelligence(onRunDay, civil, 'AU-NSW', ANONYMOUS);
    assert.equal(first.ending.days_90, 1);
    assert.equal(first.ending.days_365, 2);
    assert.deepEqual(first.ending.rows.map((s) => s.evidence_ref), ['A', 'B']);

    const afterFirstEnds = { ...onRunDay, now: new Date('2026-10-20T01:00:00.000Z') };
    const later = await tradeStateIntelligence(afterFirstEnds, civil, 'AU-NSW', ANONYMOUS);
    assert.equal(later.ending.days_365, 1, 'the contract that ended on 10 October no longer counts');
    assert.deepEqual(later.ending.rows.map((s) => s.evidence_ref), ['B']);
    assert.equal(later.ending.by_month[0]!.month, '2026-10');
    assert.deepEqual((await tradePairs(afterFirstEnds)).pairs.map((p) => [p.trade, p.jurisdiction, p.ending_12m]), [['civil-works', 'AU-NSW', 1]]);
  } finally {
    store.close();
  }
});

test('a pair with nothing held answers zeros with its covers, and is not eligible', async () => {
  const store = await seedIntelStore({}, RUN_AT);
  try {
    const reply = await tradeStateIntelligence({ store, computedAt: RUN_AT, now: new Date(RUN_AT), registry: [] }, tradeById('legal')!, 'NZ', ANONYMOUS);
    assert.equal(reply.open.count, 0);
    assert.equal(reply.ending.days_365, 0);
    assert.equal(reply.ending.by_month.length, 12);
    assert.equal(reply.eligible, false);
    assert.deepEqual(reply.open.covers.sources, [], 'no source publishes NZ tenders in this store');
    assert.equal(reply.concentration.suppliers, 0);
  } finally {
    store.close();
  }
});
