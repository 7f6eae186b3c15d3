import { createApp } from '../../api/app.ts';
import { ReleaseStore } from '../../api/release-store.ts';
import { buyerKey } from '../../lib/keys.ts';
import { keyFor } from './access.ts';
import { awardRow, planRow, seedIntelRelease, type SeedRow } from './intel-seed.ts';
import { makeDataDir, sourceRow, tenderRow } from './seed-release.ts';
import { openTestState } from './state.ts';

/** The service clock of the intelligence API tests: Friday 25 September 2026, 11:00 in Sydney (quarter 2026Q3). */
export const NOW = new Date('2026-09-25T01:00:00.000Z');

export const NSW_ROADS = 'Transport for NSW';
export const FINANCE = 'Department of Finance';

const hobartSeries = ['2023-10-01', '2024-10-01', '2025-10-01'].map((start) => awardRow({
  source: 'au_tas_tenders', contract_id: `TAS-${start.slice(0, 4)}`, jurisdiction: 'AU-TAS', buyer: 'City of Hobart', title: 'Public toilet cleaning',
  trade: 'cleaning', awarded_date: start, start_date: start, end_date: `${Number(start.slice(0, 4)) + 1}-09-30`, supplier: 'Sparkle Cleaning Pty Ltd',
  supplier_abn: '11111111111', supplier_key: 'AU-ABN:11111111111', url: `https://tenders.tas.gov.au/${start}`,
}));

export const scenario = {
  awards: [
    awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-A1', jurisdiction: 'AU-NSW', buyer: NSW_ROADS, title: 'Pavement rehabilitation Pacific Highway',
      awarded_date: '2025-11-15', start_date: '2025-11-16', end_date: '2026-11-15', supplier: 'Acme Roads Pty Ltd', url: 'https://buy.nsw.gov.au/awards/A1' }),
    awardRow({ source: 'au_nsw_contract_awards', contract_id: 'NSW-A2', jurisdiction: 'AU-NSW', buyer: NSW_ROADS, title: 'Bridge repainting',
      awarded_date: '2026-05-10', start_date: '2026-05-11', end_date: '2027-05-10', supplier: 'Bridgeworks Pty Ltd', supplier_abn: '22222222222',
      supplier_key: 'AU-ABN:22222222222', value_amount: '300000.00', url: 'https://buy.nsw.gov.au/awards/A2' }),
    awardRow({ contract_id: 'CN-FIN-1', jurisdiction: 'AU', buyer: FINANCE, title: 'Cloud hosting', trade: 'it-services', awarded_date: '2025-12-01',
      start_date: '2025-12-01', end_date: '2026-12-01', supplier: 'Cloudy Pty Ltd', supplier_abn: '44444444444', supplier_key: 'AU-ABN:44444444444', url: 'https://api.tenders.gov.au/CN-FIN-1' }),
    ...hobartSeries,
  ] as SeedRow[],
  plans: [
    planRow({ plan_id: 'APP-TRAVEL', buyer: FINANCE, title: 'Travel management services', trade: 'transport-logistics', window_start: '2026-10-01', window_end: '2026-12-31',
      status: 'Released', released: true, url: 'https://www.tenders.gov.au/App/Show/TRAVEL' }),
    planRow({ source: 'au_nsw_buy_nsw', plan_id: 'NSW-PLAN-ROADS', jurisdiction: 'AU-NSW', tier: 'state', buyer: NSW_ROADS, title: 'Road maintenance panel', trade: 'civil-works',
      window_start: '2027-01-01', window_end: '2027-03-31', status: 'Planned', url: 'https://buy.nsw.gov.au/plans/ROADS' }),
    planRow({ plan_id: 'APP-BIOMETRIC', buyer: 'Department of Home Affairs', title: 'Biometric capture devices', trade: 'it-services', expected_period_text: 'Mid 2027',
      window_start: null, window_end: null, status: 'Current' }),
    planRow({ plan_id: 'APP-WITHDRAWN', buyer: 'Department of Defence', title: 'Garrison catering', trade: 'catering-food', status: 'Withdrawn', withdrawn: true }),
    planRow({ source: 'au_nsw_buy_nsw', plan_id: 'NSW-PLAN-OLD', jurisdiction: 'AU-NSW', tier: 'state', buyer: NSW_ROADS, title: 'Old signage plan', trade: 'printing',
      window_start: '2026-01-01', window_end: '2026-03-31', status: 'Planned' }),
  ] as SeedRow[],
  tenders: [
    tenderRow({ title: 'Road resurfacing Hume Highway', trade: 'civil-works', closing_date: '2026-10-10', buyer: NSW_ROADS, reference: 'T-1' }),
    tenderRow({ title: 'Kerb and gutter works', trade: 'civil-works', closing_date: '2026-09-01', buyer: NSW_ROADS, reference: 'T-2' }),
    tenderRow({ source: 'au_federal_grantconnect', source_tag: 'GC', kind: 'grant', jurisdiction: 'AU', tier: 'federal', buyer: 'Department of Health', reference: 'GO1',
      title: 'Rural health grants', closing_date: '2026-09-28', value_text: '$1,000,000.00 (inc GST)' }),
    tenderRow({ source: 'au_federal_grantconnect', source_tag: 'GC', kind: 'grant', jurisdiction: 'AU', tier: 'federal', buyer: 'Department of Health', reference: 'GO2',
      title: 'Research grants', closing_date: '2026-10-20', value_text: '$1,000 – $20,000' }),
    tenderRow({ source: 'au_federal_grantconnect', source_tag: 'GC', kind: 'grant', jurisdiction: 'AU', tier: 'federal', buyer: 'Department of Health', reference: 'GO3',
      title: 'Ongoing community grants', closing_date: null, value_text: null }),
    tenderRow({ source: 'au_federal_grantconnect', source_tag: 'GC', kind: 'grant', jurisdiction: 'AU', tier: 'federal', buyer: 'Department of Health', reference: 'GO4',
      title: 'Closed grants', closing_date: '2026-09-01', value_text: '$5,000.00' }),
  ],
  buyers: [
    { buyer_key: buyerKey('AU-NSW', NSW_ROADS), name: NSW_ROADS, slug: 'transport-for-nsw', jurisdiction: 'AU-NSW', country: 'AU', award_count: 2, window_from: '2021-09-25',
      open_tenders: 1, expiring_12m: 2, planned_12m: 1, median_value: '200000.00', p25_value: '150000.00', p75_value: '250000.00', value_total: '400000.00', value_currency: 'AUD',
      value_count: 2, median_response_days: 21, listed: true, first_seen: '2025-11-20T00:00:00Z', sources: ['au_nsw_contract_awards'] },
  ] as SeedRow[],
  abn_entities: [
    { source: 'au_abn_bulk_extract', abn: '44444444444', abn_status: 'ACT', abn_status_from: '2001-01-01', entity_type_code: 'PRV', entity_type: 'Australian Private Company',
      individual: false, name: 'CLOUDY PTY LTD', state: 'NSW', postcode: '2000', asic_number: null, gst_status: 'ACT', gst_status_from: null, trading_names: [], business_names: [],
      other_names: [], record_updated: '2026-01-01', as_of: '2026-09-23', url: 'https://abr.business.gov.au/ABN/View?id=44444444444', first_seen: '2026-09-25T00:00:00Z', stale: false },
  ] as SeedRow[],
  sources: ['au_nsw_contract_awards', 'au_federal_austender_ocds', 'au_tas_tenders', 'au_federal_austender_app', 'au_nsw_buy_nsw', 'au_federal_grantconnect']
    .map((id) => sourceRow({ id, name: `Source ${id}`, attribution: `Attribution of ${id}`, licence: 'CC BY 4.0' })),
};

export interface IntelligenceApp {
  app: Awaited<ReturnType<typeof createApp>>;
  /** Headers of a caller with an API key. */
  keyed: Record<string, string>;
  close(): Promise<void>;
}

/** The API over a release seeded with the scenario (or a variant of it), on the scenario's clock. */
export async function intelligenceApp(seeded: typeof scenario = scenario): Promise<IntelligenceApp> {
  const dataDir = await makeDataDir();
  await seedIntelRelease({ dataDir, computedAt: NOW.toISOString(), ...seeded });
  const store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
  const state = await openTestState();
  const app = await createApp({ store, state, burst: false });
  return {
    app,
    keyed: (await keyFor(state, null)).headers,
    close: async () => {
      await store.close();
      const { rm } = await import('node:fs/promises');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
