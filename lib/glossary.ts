// Display names for the service's internal values, in one place: every page, the check page and the CSV headers
// say a value the same way, and a value without a name here shows as itself only where a test would catch it.

/** A source's status on its last run. */
const SOURCE_STATUS: Record<string, string> = {
  ok: 'Read',
  empty: 'Read, nothing listed',
  error: 'Failed',
  stale: 'Failed; its last good copy is kept',
  login_walled: 'Needs a supplier login, not read',
  robots_refused: 'Refused by its robots.txt, not read',
  not_run: 'Not run yet',
};

export function sourceStatusName(status: string): string {
  return SOURCE_STATUS[status] ?? sentenceCase(status);
}

/** Why a source was not read, in a few words after its name. */
const SOURCE_STATUS_WHY: Record<string, string> = {
  error: 'failed on the last run',
  stale: 'failed on the last run; earlier records kept',
  login_walled: 'needs a login',
  robots_refused: 'refused by robots.txt',
  not_run: 'not run yet',
  ok: 'read',
  empty: 'read, nothing listed',
};

export function sourceStatusWhy(status: string): string {
  return SOURCE_STATUS_WHY[status] ?? sentenceCase(status).toLowerCase();
}

/** Levels of government (a tender's `tier`). */
const TIER: Record<string, string> = {
  federal: 'Federal',
  national: 'National (New Zealand)',
  state: 'State or territory',
  council: 'Local council',
  university: 'University',
  health: 'Health service',
};

export function tierName(tier: string): string {
  return TIER[tier] ?? sentenceCase(tier);
}

/** What a registry source publishes (its `kinds`). */
const SOURCE_KIND: Record<string, string> = {
  tender: 'open tenders',
  grant: 'grant rounds',
  award: 'contract awards',
  plan: 'procurement plans',
  abn: 'ABN register',
  company: 'company register',
  sanction: 'sanctions list',
};

export function sourceKindName(kind: string): string {
  return SOURCE_KIND[kind] ?? sentenceCase(kind).toLowerCase();
}

/** How a source is read (its `mode`). */
const SOURCE_MODE: Record<string, string> = {
  rss: 'a news feed',
  'json-api': 'its data service',
  csv: 'a data file',
  html: 'its web pages',
  browser: 'its web pages, in a browser',
  xlsx: 'a spreadsheet',
};

export function sourceModeName(mode: string): string {
  return SOURCE_MODE[mode] ?? sentenceCase(mode).toLowerCase();
}

/** A notice's kind. */
export function noticeKindName(kind: string): string {
  return kind === 'grant' ? 'Grant round' : kind === 'tender' ? 'Tender' : sentenceCase(kind);
}

/** A value with no display name of its own, as words: "likely_ai" → "Likely ai". Never shown where a name is known. */
export function sentenceCase(value: string): string {
  const words = value.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
