import { LIMITATIONS } from './analyse.ts';
import type { Company, CompanyResolution } from './result.ts';
import { WEEKLY_LAG } from './standing.ts';

/**
 * The sandbox reply of POST /v1/companies/resolve (spec, Shared input conventions: Sandbox): an invented
 * company shaped exactly like a real resolution, the same for every request.
 */
const RIDGELINE: Company = {
  identifiers: { abn: '53004085616', acn: '004085616' },
  names: { legal: 'RIDGELINE CIVIL PTY LTD', business: ['RIDGELINE EARTHWORKS'], trading: ['RIDGELINE CIVIL'] },
  entity_type: 'Australian Private Company',
  abn_status: 'active',
  abn_status_from: '1999-11-01',
  abn_status_source: 'abn_bulk_extract',
  asic: {
    acn: '004085616',
    status: 'REGD',
    status_meaning: 'Registered',
    in_good_standing: true,
    registered: '1974-05-02',
    deregistered: null,
    former_names: ['KALBAR EARTHWORKS PTY LTD'],
    as_of: '2026-06-08T00:00:00.000Z',
    age_days: 2,
    caveat: WEEKLY_LAG,
  },
};

export function companySandboxReply(): CompanyResolution {
  return {
    query: 'ABN 53 004 085 616',
    parsed_as: 'abn',
    jurisdiction: 'AU',
    status: 'resolved',
    resolved_because: "ABN 53 004 085 616 resolves directly: the ABN bulk extract as of 2026-06-09 lists ABN 53 004 085 616; ASIC's company dataset as of 2026-06-08 lists ACN 004 085 616.",
    identifier: { scheme: 'abn', digits: '53004085616', formatted: '53 004 085 616', check_digits: 'valid', nearest_valid: [], corrections: [] },
    selected: RIDGELINE,
    candidates: [{ ...RIDGELINE, match: { rule: 'identifier', score: 1, matched: '53 004 085 616', name_kind: 'identifier', found_in: ['abr', 'asic'] } }],
    coverage: [
      { source: 'abr', status: 'read', detail: 'Read the ABN bulk extract (Australian Business Register) as of 2026-06-09.' },
      { source: 'asic', status: 'read', detail: "Read ASIC's company dataset as of 2026-06-08." },
      { source: 'abn_lookup', status: 'not_configured', detail: "ABN Lookup (live) is not configured on this server (SVC_ABN_LOOKUP_GUID is unset): the release's copies of the registers answered alone." },
    ],
    limitations: `Sandbox reply: an invented company showing the shape of a real resolution; no register was read. ${LIMITATIONS}`,
  };
}
