import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coverageOf, sourcesInScope, type CoveredSource } from './coverage.ts';

const source = (id: string, jurisdiction: string, tier: string, kinds: string[], extra: Partial<CoveredSource> = {}): CoveredSource =>
  ({ id, jurisdiction, tier, kinds, status: 'ok', tender_count: 3, award_count: 0, plan_count: 0, ...extra });

const registry = [
  source('au_federal_austender_atm', 'AU', 'federal', ['tender']),
  source('au_federal_grantconnect', 'AU', 'federal', ['grant']),
  source('au_nsw_buy_nsw', 'AU-NSW', 'state', ['tender']),
  source('au_nsw_contract_awards', 'AU-NSW', 'state', ['award'], { tender_count: 0, award_count: 9 }),
  source('au_vendorpanel', 'AU', 'council', ['tender']),
  source('au_tenderlink', 'AU', 'council', ['tender'], { status: 'login_walled', tender_count: 0, why: 'needs a supplier login' }),
  source('au_wa_tenders', 'AU-WA', 'state', ['tender', 'award'], { status: 'robots_refused', tender_count: 0 }),
  source('au_asic_companies', 'AU', 'federal', ['company'], { tender_count: 0 }),
  source('nz_gets', 'NZ', 'national', ['tender']),
];
const ids = (sources: CoveredSource[]) => sources.map((s) => s.id);

test('a state is covered by its own sources and by the multi-state platforms filed under the country, never by federal ones', () => {
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['AU-NSW'], kinds: ['tender', 'grant'] })), ['au_nsw_buy_nsw', 'au_vendorpanel', 'au_tenderlink']);
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['AU-NSW'], kinds: ['tender', 'grant', 'award', 'plan'] })),
    ['au_nsw_buy_nsw', 'au_nsw_contract_awards', 'au_vendorpanel', 'au_tenderlink']);
});

test('the default scope is Australia: New Zealand only when asked for, and registers are no tender source', () => {
  assert.deepEqual(ids(sourcesInScope(registry, { kinds: ['tender', 'grant'] })),
    ['au_federal_austender_atm', 'au_federal_grantconnect', 'au_nsw_buy_nsw', 'au_vendorpanel', 'au_tenderlink', 'au_wa_tenders']);
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['NZ'], kinds: ['tender'] })), ['nz_gets']);
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['NZ'], kinds: ['grant'] })), []);
});

test('the federal page covers the federal sources alone', () => {
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['AU'], kinds: ['tender', 'grant'], exactly: true })), ['au_federal_austender_atm', 'au_federal_grantconnect']);
  assert.deepEqual(ids(sourcesInScope(registry, { jurisdictions: ['AU-NSW'], kinds: ['tender'], exactly: true })), ['au_nsw_buy_nsw', 'au_vendorpanel', 'au_tenderlink'], 'a state is the same either way');
});

test('coverage counts the sources in scope and says which held nothing or were not read, and why', () => {
  assert.deepEqual(coverageOf(registry, { jurisdictions: ['AU-WA'], kinds: ['tender', 'grant'] }), {
    sources_total: 3,
    sources_empty: [
      { source: 'au_tenderlink', status: 'login_walled', why: 'needs a supplier login' },
      { source: 'au_wa_tenders', status: 'robots_refused', why: 'The last run ended with status robots_refused and recorded no diagnosis.' },
    ],
  });
  const awardsOnly = coverageOf(registry, { jurisdictions: ['AU-NSW'], kinds: ['award'] });
  assert.deepEqual(awardsOnly, { sources_total: 1, sources_empty: [] }, 'a source is empty by the records of the kinds asked for');
  assert.deepEqual(coverageOf([source('au_sa_tenders', 'AU-SA', 'state', ['tender'], { tender_count: 0 })], { kinds: ['tender', 'grant'] }).sources_empty,
    [{ source: 'au_sa_tenders', status: 'ok', why: 'The source answered on the last run but listed no tenders.' }]);
});
