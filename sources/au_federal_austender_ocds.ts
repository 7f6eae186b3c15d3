import { defineSource, type SourceContext } from './_contract/define-source.ts';
import { ocdsReleasePackageRoute, type OcdsFamilyOptions } from './_platforms/ocds.ts';

const ORIGIN = 'https://api.tenders.gov.au';

/**
 * A first run has no earlier release to carry forward, so it reaches back two weeks: about 2,500 notices and
 * their amendments (AusTender publishes some 65k a year), roughly 27 pages of 100, enough to fill the
 * recent-awards views on the first night in a short crawl. Deeper history is `npm run backfill` (the `historic` walk below).
 */
const FIRST_RUN_BACKFILL_MS = 14 * 24 * 60 * 60 * 1000;

/** Releases modified while the previous run was still paging arrive behind its cursor; re-reading a day catches them. */
const OVERLAP_MS = 24 * 60 * 60 * 1000;

/** How AusTender departs from standard OCDS, as options of the OCDS family. */
export const austenderOcdsOptions: OcdsFamilyOptions = {
  jurisdiction: 'AU',
  buyerRole: 'procuringEntity', // why: AusTender publishes no `buyer`; the agency is the procuring entity
  timeZone: 'Australia/Sydney', // why: dates are Canberra midnight sent as T13:00Z (AEDT) or T14:00Z (AEST); Canberra keeps Sydney's rules
  supplierAbnScheme: 'AU-ABN',
  agencyAbns: ['68706814312'], // why: Defence's own ABN, found under about 140 supplier names
  categoryScheme: 'UNSPSC',
  cursorParameter: 'cursor',
  contractUrl: (contractId) => `${ORIGIN}/ocds/findById/${encodeURIComponent(contractId)}`,
};

/** The contractLastModified window tonight's crawl asks for, ending at the run's clock. */
function modifiedWindow(ctx: SourceContext): { from: Date; to: Date } {
  const from = ctx.lastSuccessAt ? ctx.lastSuccessAt.getTime() - OVERLAP_MS : ctx.now.getTime() - FIRST_RUN_BACKFILL_MS;
  return { from: new Date(from), to: ctx.now };
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC, the form the findByDates path takes before its literal `Z`. */
function pathStamp(instant: Date): string {
  return instant.toISOString().slice(0, 19);
}

export default defineSource({
  id: 'au_federal_austender_ocds',
  tag: 'CN',
  name: 'AusTender contract notices (OCDS)',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['award'],
  mode: 'json-api',
  origin: ORIGIN,
  homepage: 'https://www.tenders.gov.au',
  licence: 'CC BY 3.0 AU (https://creativecommons.org/licenses/by/3.0/au/), as each release package\'s license field states',
  attribution: 'Contract notice data from AusTender, Department of Finance, licensed under CC BY 3.0 AU',
  caveats: [
    'About 30% of contract notices on AusTender are reported to be missing from the OCDS API (unverified third-party claim).',
    'Agencies sometimes type their own ABN into the supplier field (Defence\'s 68706814312 appears under many supplier names); such ABNs are dropped and the supplier kept by name.',
    'A few notices carry a nominal value of 1 rather than the contract amount; values are kept as published.',
    'Agencies mostly put their purchase-order or file number in the contract title and the subject in the description; such a title is kept as the reference and the description shown as the title.',
  ],
  politeness: {
    maxConcurrency: 1, // why: each page's cursor comes from the page before, so there is never a second request to overlap
    delayMs: 1000, // why: a keyless public API with no published rate limit; one page a second is gentle, and a first run's 27 pages still wait under a minute in all
    maxRetries: 3, // why: the API sits behind AWS API Gateway, whose occasional 502/504 passes on retry; three tries with backoff ride it out
    timeoutSecs: 60, // why: a page carries 100 full releases; a minute allows a slow page without hiding a dead host
  },
  start(ctx) {
    const { from, to } = modifiedWindow(ctx);
    return [{ url: ctx.url(`/ocds/findByDates/contractLastModified/${pathStamp(from)}Z/${pathStamp(to)}Z`), label: 'LIST' }];
  },
  routes: { LIST: ocdsReleasePackageRoute(austenderOcdsOptions) },
  historic: {
    earliest: '2007-01-01', // why: AusTender's contract notices reach back to 2007; older windows only cost empty pages
    // why: contractLastModified, as the nightly asks, so each window brings amendments with their originals and a backfill's
    // last window meets the nightly's first without a gap
    start: (ctx, window) => [{ url: ctx.url(`/ocds/findByDates/contractLastModified/${pathStamp(window.from)}Z/${pathStamp(window.to)}Z`), label: 'LIST' }],
  },
});
