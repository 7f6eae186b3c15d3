/**
 * NT Quotations and Tenders Online: who the portal is and how gently it is read. Its source adapter
 * (sources/au_nt_qtol.ts, whose politeness says why these figures) crawls it nightly and the API's tender-pack
 * fetch (api/bids/pack-fetch.ts) reads a tender's documents from it; both read them here, so the two never
 * disagree on the host or its spacing.
 */
export const NT_QTOL = {
  id: 'au_nt_qtol',
  name: 'NT Quotations and Tenders Online',
  origin: 'https://tendersonline.nt.gov.au',
  /** Least time between two requests to the host. */
  delayMs: 3000,
  /** One request's time limit. */
  timeoutSecs: 30,
} as const;
