import { TENDERSEARCH_LISTS, tenderSearchSource } from './_platforms/tendersearch.ts';

export default tenderSearchSource({
  id: 'au_sa_tenders',
  tag: 'SA',
  name: 'SA Tenders and Contracts',
  jurisdiction: 'AU-SA',
  origin: 'https://www.tenders.sa.gov.au',
  homepage: 'https://www.tenders.sa.gov.au/tender/search?preset=open',
  licence:
    'Not verified: the research notes do not cover the site\'s copyright or terms pages, so tender text is treated as © Government of South Australia, shown with a link to the page, not republished in bulk.',
  attribution: 'SA Tenders and Contracts (www.tenders.sa.gov.au), Government of South Australia.',
  caveats: [
    'Open tenders only. SA\'s contract award register is read on a second host (www.contracts.sa.gov.au), and a source crawls one origin; the awards need either a second source or a source contract that allows two origins.',
    'The site sits behind Cloudflare; the crawler does not impersonate a browser, so a night on which Cloudflare challenges it fails with that diagnosis rather than reporting zero tenders.',
    'Tender documents need a login and are not collected; tenders publish no estimated value, so value_text is null.',
    'Closing times are Adelaide time (UTC+9:30, +10:30 in daylight saving), as the portal prints them; SA abbreviates September as "Sept".',
    'The pages of tenders.sa.gov.au were never captured (no public capture was found): the list and tender markup is assumed to be the platform\'s, as captured on Buying for Victoria and Tenders ACT, and is unverified for SA.',
  ],
  politeness: {
    maxConcurrency: 1, // why: the portal sits behind Cloudflare, which challenges bursts; one request at a time never is one
    delayMs: 1000, // why: a few list pages and one page per open tender (a few hundred) take minutes at one a second
    maxRetries: 2, // why: transient 5xx pass on retry; a 403 challenge or 404 is final
    timeoutSecs: 30, // why: a page answers in a second or two; half a minute means the host is struggling
  },
  openTenders: TENDERSEARCH_LISTS.openTenders,
  recentAwards: null,
});
