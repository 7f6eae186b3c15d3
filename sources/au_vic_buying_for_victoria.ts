import { TENDERSEARCH_LISTS, tenderSearchSource } from './_platforms/tendersearch.ts';

export default tenderSearchSource({
  id: 'au_vic_buying_for_victoria',
  tag: 'VIC',
  name: 'Buying for Victoria (Tenders VIC)',
  jurisdiction: 'AU-VIC',
  origin: 'https://www.tenders.vic.gov.au',
  homepage: 'https://www.tenders.vic.gov.au/tender/search?preset=open',
  licence:
    'No open licence is recorded for tenders.vic.gov.au: the research notes do not cover its copyright or terms pages, so tender and contract text is treated as © State of Victoria, shown with a link to the page, not republished in bulk. Contract award details are disclosures the Victorian Government publishes by policy.',
  attribution: 'Buying for Victoria (www.tenders.vic.gov.au), State of Victoria.',
  caveats: [
    'The site sits behind a Cloudflare TLS-fingerprint check; the crawler does not impersonate a browser, so a night on which Cloudflare challenges it fails with that diagnosis rather than reporting zero tenders.',
    'Tender documents need a login and are not collected; tenders publish no estimated value, so value_text is null.',
    'Awards come from the recently-awarded list, newest first, 200 contracts a night at most.',
    'The contract register prints no award date: release_date is the night the contract was read and awarded_date is null.',
    'Values are the amount printed ("$176,385.00 (Estimate)" is kept as $176,385); whether it is an estimate or includes GST is not carried.',
    'A UNSPSC printed as a name alone (most contracts) gives no category code; the name is not carried until AwardRecord gains category_name.',
    'A panel contract with several suppliers is one record naming them all, with no ABN.',
    'The open-tender list, its "Records: 1 - 25 of 78" footer, a tender page and a contract page follow public captures of the live site. The recently-awarded list was never captured: its rows follow opencontractau\'s parser and its footer is assumed to be the tender list\'s.',
  ],
  politeness: {
    maxConcurrency: 1, // why: robots.txt asks for a 2 s Crawl-delay, which one request at a time keeps exactly
    delayMs: 2000, // why: the Crawl-delay of tenders.vic.gov.au's robots.txt (the runner also reads it and keeps the larger)
    maxRetries: 2, // why: Cloudflare's brief 5xx spells pass on retry; a 403 challenge is final, and more tries would only look like a bot
    timeoutSecs: 30, // why: a list or detail page answers in a second or two; half a minute means the host is struggling
  },
  openTenders: TENDERSEARCH_LISTS.openTenders,
  recentAwards: TENDERSEARCH_LISTS.recentAwards,
});
