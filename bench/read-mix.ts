import { openStore } from '../data/store.ts';
import { JURISDICTIONS } from '../lib/jurisdictions.ts';
import { jurisdictionSlug } from '../data/intelligence/places.ts';
import { awardPaths, tradeStatePaths, type AwardMixKeys } from './intelligence-bench.ts';
import { searchPaths } from './search-bench.ts';

/** Tender keys of the release, for single-tender reads. */
export async function readTenderKeys(storePath: string, count = 500): Promise<string[]> {
  const store = await openStore(storePath, { readOnly: true });
  try {
    const rows = await store.all<{ tender_key: string }>(`SELECT tender_key FROM tenders ORDER BY tender_key LIMIT ${count}`);
    return rows.map((row) => row.tender_key);
  } finally {
    store.close();
  }
}

/**
 * The reads an identified client makes, interleaved: a search, a single tender, an award query and an
 * intelligence page in turn. Searches repeat (the 56-query mix); tenders, awards and trade × state pages
 * cycle through many distinct keys; the intelligence summaries and per-jurisdiction pages are few and asked
 * by everyone at once, the pattern that computed one reply many times over when concurrent misses were not shared.
 * Five hundred rounds: autocannon prepares the whole list for each connection before the first request, and at 200
 * connections 1,000 rounds or more held its event loop long enough that it counted dozens of requests as timed out
 * before they were sent.
 */
export function readMixPaths(tenderKeys: string[], awardKeys: AwardMixKeys, count = 500): string[] {
  const searches = searchPaths();
  const awards = awardPaths(awardKeys, count);
  const pairs = tradeStatePaths();
  const overviews = ['/v1/intelligence/summary', '/v1/intelligence/trades', '/v1/signals', ...JURISDICTIONS.map((j) => `/v1/intelligence/${jurisdictionSlug(j)}`)];
  return Array.from({ length: count }, (_, i) => {
    const turn = Math.floor(i / 2);
    const intelligence = i % 2 === 0 ? overviews[turn % overviews.length]! : pairs[turn % pairs.length]!;
    return [searches[i % searches.length]!, `/v1/tenders/${tenderKeys[i % tenderKeys.length]}`, awards[i]!, intelligence];
  }).flat();
}
