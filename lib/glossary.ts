// Display names for the service's internal values, in one place: every page, the check page and the CSV headers
// say a value the same way, and a value without a name here shows as itself only where a test would catch it.

/** A value's display name from a table of names, or its words when the table lacks it; `names` is the table, for tests. */
export interface Naming {
  (value: string): string;
  names: Readonly<Record<string, string>>;
}
const named = (names: Record<string, string>): Naming => Object.assign((value: string) => names[value] ?? sentenceCase(value), { names });

/** A source's status on its last run. */
export const sourceStatusName = named({
  ok: 'Read',
  empty: 'Read, nothing listed',
  error: 'Failed',
  stale: 'Failed; its last good copy is kept',
  login_walled: 'Needs a supplier login, not read',
  robots_refused: 'Refused by its robots.txt, not read',
  not_run: 'Not run yet',
});

/** Why a source was not read, in a few words after its name. */
const sourceStatusWhyNamed = named({
  error: 'failed on the last run',
  stale: 'failed on the last run; earlier records kept',
  login_walled: 'needs a login',
  robots_refused: 'refused by robots.txt',
  not_run: 'not run yet',
  ok: 'read',
  empty: 'read, nothing listed',
});

export function sourceStatusWhy(status: string): string {
  return status in sourceStatusWhyNamed.names ? sourceStatusWhyNamed(status) : sentenceCase(status).toLowerCase();
}

/** Levels of government (a tender's `tier`). */
export const tierName = named({
  federal: 'Federal',
  national: 'National (New Zealand)',
  state: 'State or territory',
  council: 'Local council',
  university: 'University',
  health: 'Health service',
});

/** What a registry source publishes (its `kinds`). */
export const sourceKindName = named({
  tender: 'open tenders',
  grant: 'grant rounds',
  award: 'contract awards',
  plan: 'procurement plans',
  abn: 'ABN register',
  company: 'company register',
  sanction: 'sanctions list',
});

/** How a source is read (its `mode`). */
export const sourceModeName = named({
  rss: 'a news feed',
  'json-api': 'its data service',
  csv: 'a data file (CSV)',
  xml: 'a data file (XML)',
  html: 'its web pages',
  browser: 'its web pages, in a browser',
  xlsx: 'a spreadsheet',
});

/** A notice's kind. */
export function noticeKindName(kind: string): string {
  return kind === 'grant' ? 'Grant round' : kind === 'tender' ? 'Tender' : sentenceCase(kind);
}


/** Forensic inspection: the risk band of a warrant. */
export const riskBandName = named({
  low: 'Low', medium: 'Medium', high: 'High', insufficient: 'Too little could be read', error: 'The file could not be read',
});

/** Forensic inspection: how much of the file could be read. */
export const inspectionQualityName = named({
  full: 'All of it', partial: 'Most of it (some parts could not be read)', minimal: 'Very little (little text or structure to inspect)', failed: 'None of it',
});

/** Forensic inspection: a signal's weight and kind. */
export const signalSeverityName = named({ info: 'for information', low: 'low', medium: 'medium', high: 'high' });
export const signalGroupName = named({ tampering: 'tampering', structure: 'file structure', metadata: 'metadata', arithmetic: 'arithmetic' });

/** AI-text estimate: which way the text leans. */
export const leanName = named({
  ai: 'Written by AI', likely_ai: 'Likely written by AI', uncertain: 'Could be either', likely_human: 'Likely written by a person', human: 'Written by a person',
});

/** Fact-check: a reference's status, and a claim against its source. */
export const referenceStatusName = named({
  live: 'live', archived: 'archived (gone, kept by the Wayback Machine)', dead: 'dead', unreachable_now: 'could not be reached just now',
  not_checked: 'not checked', verified: 'verified', partial_title_match: 'title partly matches', title_mismatch: 'title does not match',
  registered: 'registered', registered_elsewhere: 'registered elsewhere', not_found: 'not found', found: 'found', possible_match: 'possibly found',
});
export const claimVerdictName = named({ supports: 'Supported', contradicts: 'Contradicted', unclear: 'Unclear' });

/** Source overlap: the outcome and the band. */
export const overlapOutcomeName = named({
  assessed: 'Assessed', abstained_too_short: 'Not assessed: too short', abstained_not_prose: 'Not assessed: not prose',
  search_unavailable: 'Not assessed: web search unavailable', sources_unreachable: 'Not assessed: the pages found could not be read',
});
export const overlapBandName = named({ none: 'None', low: 'Low', moderate: 'Moderate', high: 'High', very_high: 'Very high', not_assessed: 'Not assessed' });

/** Adverse media and sanctions screening. */
export const riskFlagName = named({ high: 'High: review before relying on this person', review: 'Review', none_found: 'Nothing adverse found', incomplete: 'Incomplete: a source could not be read' });
export const matchStrengthName = named({ strong: 'strong', possible: 'possible', weak: 'weak' });
export const mediaCategoryName = named({
  money_laundering: 'money laundering', sanctions_evasion: 'sanctions evasion', terrorism: 'terrorism', corruption_bribery: 'corruption or bribery',
  fraud: 'fraud', violence: 'violence', regulatory_action: 'regulatory action', other: 'other adverse news',
});
export const mediaMatchName = named({ name_and_details: 'the name and details', name_only: 'the name only', search_only: 'the search alone' });

/** Company resolution. */
export const resolutionStatusName = named({ resolved: 'Resolved', ambiguous: 'Several companies match', not_found: 'Not found', inconclusive: 'Inconclusive: a register could not be read' });
export const registerStatusName = named({
  read: 'read', stale: 'read (an older copy)', unreadable: 'could not be read', not_configured: 'not set up', unreachable: 'could not be reached',
  refused: 'refused', not_searched: 'not searched',
});
export const candidateRuleName = named({
  identifier: 'its number', one_digit_correction: 'a number one digit away', transposed_digits: 'a number with two digits swapped', exact: 'the exact name', same_words: 'the same words',
  all_words: 'all the words', name_words: 'words of the name',
});
export const registerName = named({ abr: 'Australian Business Register', asic: 'ASIC', abn_lookup: 'ABN Lookup', nzbn: 'New Zealand Business Number register' });

/** Organisations: a member's role. Bids: a bid's stage. */
export const roleName = named({ owner: 'Owner', admin: 'Administrator', member: 'Member', viewer: 'Viewer' });
export const stageName = named({
  qualifying: 'Deciding whether to bid', preparing: 'Preparing', reviewing: 'In review', submitted: 'Submitted', won: 'Won', lost: 'Lost', withdrawn: 'Withdrawn',
});

/** Forward-looking signals: their kind and where their date comes from. */
export const signalKindName = named({ contract_expiry: 'Contract ending', planned_procurement: 'Planned procurement', recurring_tender: 'Likely re-tender' });
export const signalConfidenceName = named({ published: 'stated by the buyer', derived: 'our estimate' });

/**
 * A field of the API's replies as a CSV column heads it: "month" → "Month", "value_amount" → "Value amount",
 * with the names a reader would not guess spelled out.
 */
export const fieldName = named({
  count: 'Count', value: 'Value', month: 'Month', year: 'Year', jurisdiction: 'Jurisdiction code', name: 'Name', open_now: 'Open now',
  expiring_12m: 'Ending in 12 months', planned_quarter: 'Planned this quarter', planned_12m: 'Planned in 12 months', award_count: 'Contracts',
  open_tenders: 'Open tenders', median_value: 'Median value', value_total: 'Total value', value_currency: 'Currency', p25_value: 'Lower quarter value',
  p75_value: 'Upper quarter value', buyer_key: 'Buyer key', page_key: 'Tender key', window_start: 'Window starts', window_end: 'Window ends',
  value_text: 'Value as published', evidence_ref: 'Reference', ending_12m: 'Ending in 12 months', year_awards: 'Contracts in the year',
  closing_date: 'Closing date', published_date: 'Published', awarded_date: 'Awarded', start_date: 'Starts', end_date: 'Ends', contract_id: 'Contract number',
  tender_count: 'Tenders', plan_count: 'Plans', last_run_at: 'Last run', last_success_at: 'Last good run', id: 'Source id', tag: 'Tag',
  median_response_days: 'Median days to respond', value_count: 'Contracts with a value', window_from: 'Contracts counted from',
  share: 'Share of contracts naming a supplier',
});

/** A value with no display name of its own, as words: "likely_ai" → "Likely ai". Never shown where a name is known. */
export function sentenceCase(value: string): string {
  const words = value.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
