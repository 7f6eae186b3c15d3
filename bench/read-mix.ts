import { openStore } from '../data/store.ts';
import { JURISDICTIONS } from '../lib/jurisdictions.ts';
import { jurisdictionSlug } from '../data/intelligence/places.ts';
import { awardPaths, tradeStatePaths, type AwardMixKeys } from './intelligence-bench.ts';
import { searchPaths } from './search-bench.ts';

/** Tender keys of the release, for single-tender reads. */
export async function readTenderKeys(storePath: string, count = 1_000): Promise<string[]> {
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
 */
export function readMixPaths(tenderKeys: string[], awardKeys: AwardMixKeys, count = 20_000): string[] {
  const searches = searchPaths();
  const awards = awardPaths(awardKeys, count);
  const pairs = tradeStatePaths();
  const overviews = ['/v1/intelligence/summary', '/v1/intelligence/trades', '/v1/signals', ...JURISDICTIONS.map((j) => `/v1/intelligence/${jurisdictionSlug(j)}`)];
  return Array.from({ length: count }, (_, i) => {
    const intelligence = i % 2 === 0 ? overviews[(i / 2) % overviews.length]! : pairs[i % pairs.length]!;
    return [searches[i % searches.length]!, `/v1/tenders/${tenderKeys[i % tenderKeys.length]}`, awards[i]!, intelligence];
  }).flat();
}
