import { TENDERSEARCH_LISTS, tenderSearchSource } from './_platforms/tendersearch.ts';

export default tenderSearchSource({
  id: 'au_act_tenders',
  tag: 'ACT',
  name: 'Tenders ACT',
  jurisdiction: 'AU-ACT',
  origin: 'https://www.tenders.act.gov.au',
  homepage: 'https://www.tenders.act.gov.au/tender/search?preset=open',
  licence:
    'Not verified: the site links a copyright page (/copyright) that the research notes do not cover, so tender and contract text is treated as © Australian Capital Territory, shown with a link to the page, not republished in bulk.',
  attribution: 'Tenders ACT (www.tenders.act.gov.au), ACT Government.',
  caveats: [
    'Tender documents and responses need a Tenders ACT login and are not collected; tenders publish no estimated value, so value_text is null.',
    'Closing times are Canberra time (Australia/Sydney rules), as the portal prints them.',
    'Awards come from the recently-awarded list, newest first, 200 contracts a night at most; the same contracts may also appear in the ACT contracts register (data.act.gov.au), a separate source.',
    'The contract register prints no award date: release_date is the night the contract was read and awarded_date is null.',
    'A UNSPSC printed as a name alone gives no category code; the name is not carried until AwardRecord gains category_name.',
    'The open-tender list and a tender page follow public captures of the live site; the captured list fit on one page ("Records: 22"), so the footer of a longer list is assumed to read as Buying for Victoria\'s does ("Records: 1 - 25 of 78"). The recently-awarded list and the contract pages were never captured on ACT.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a small territory portal behind Cloudflare; one request at a time never looks like a burst
    delayMs: 1000, // why: about 60 pages a night (a few list pages, one page per tender and contract) fit in a minute at one a second
    maxRetries: 2, // why: transient 5xx pass on retry; a 403 challenge or 404 is final
    timeoutSecs: 30, // why: a page answers in a second or two; half a minute means the host is struggling
  },
  openTenders: TENDERSEARCH_LISTS.openTenders,
  recentAwards: TENDERSEARCH_LISTS.recentAwards,
  // The practice entry of the real open-tender list capture (RFx 99999.8, "Other Arrangements", open 2019 to 2030).
  practiceTitles: [/\bTenders ACT Practice\b/i],
});
