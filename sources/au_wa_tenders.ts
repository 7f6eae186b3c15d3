import { tenderSearchSource } from './_platforms/tendersearch.ts';

/** WA lists a demonstration notice titled DEMOTENDER among its open tenders (issue 29); no capture of it is public. */
export const WA_PRACTICE_TITLES = [/\bDEMO ?TENDER\b/i];

export default tenderSearchSource({
  id: 'au_wa_tenders',
  tag: 'WA',
  name: 'Tenders WA',
  jurisdiction: 'AU-WA',
  origin: 'https://www.tenders.wa.gov.au',
  homepage: 'https://www.tenders.wa.gov.au/watenders/index.do',
  licence:
    'Not verified, and moot: robots.txt disallows every page but the home page (User-agent: * / Allow: /watenders/index.do / Disallow: /), so nothing is collected.',
  attribution: 'Tenders WA (www.tenders.wa.gov.au), Government of Western Australia.',
  caveats: [
    'Registered and never crawled: robots.txt disallows the tender and contract lists, so the registry reports robots_refused and the source holds no records.',
    'WA serves the platform under /watenders/ with its own list paths; if its robots.txt ever allows them, their markup must be checked against this family before the records are trusted.',
  ],
  politeness: {
    maxConcurrency: 1, // why: only robots.txt is ever fetched; one request needs no concurrency
    delayMs: 1000, // why: the platform's usual spacing, should robots.txt ever allow the lists
    maxRetries: 1, // why: no list request gets past robots.txt today; one retry covers a transient failure should that change
    timeoutSecs: 30, // why: robots.txt is a few bytes; half a minute means the host is struggling
  },
  // The lists as WA serves them (research 1.6, whatnick wa_source.go); robots.txt refuses both.
  openTenders: '/watenders/tender/search/tender-search.do?action=do-advanced-tender-search',
  recentAwards: '/watenders/contract/list.action',
  practiceTitles: WA_PRACTICE_TITLES,
});
