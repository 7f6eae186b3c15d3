import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { JURISDICTIONS, isJurisdiction } from '../lib/jurisdictions.ts';
import { buyerDetails } from '../data/intelligence/buyers.ts';
import { ANONYMOUS, attributions, readRegistry, type IntelContext } from '../data/intelligence/context.ts';
import { grantsSummary } from '../data/intelligence/grants.ts';
import { jurisdictionIntelligence } from '../data/intelligence/jurisdictions.ts';
import { jurisdictionSlug } from '../data/intelligence/places.ts';
import { intelligenceSummary } from '../data/intelligence/summary.ts';
import { tradeById, tradePairs, tradeStateIntelligence } from '../data/intelligence/trades.ts';
import { readSources, readTenderIndex } from '../data/search/read-tenders.ts';
import { sourcesReply } from '../data/search/source-reply.ts';
import { tenderReply } from '../data/search/tender-reply.ts';
import type { SourceRunSummary } from '../data/release.ts';
import type { Store } from '../data/store.ts';

export interface SiteJsonOptions {
  /** The night the figures are true for (the release's `computed_at`, ISO). */
  computedAt: string;
  /** The run's clock: "open", "this week" and "the next 12 months" are judged against it. */
  now: Date;
}

export interface SiteJsonResult {
  /** Per-source outcomes for the manifest (`records` is filled in from the crawl by the caller). */
  /** Per source, as the store holds it; the run adds its warnings, which the store does not keep. */
  sources: Omit<SourceRunSummary, 'warnings'>[];
  counts: Record<string, number>;
  /** Files written, relative to the site-json folder (each is one page's data and its JSON twin). */
  files: string[];
}

/** Buyers whose details are read together: enough to make the per-query cost small, few enough to keep memory flat. */
const BUYER_BATCH = 500;

/**
 * Writes the release's site JSON: one file per page of the static site, each the reply the API gives an
 * anonymous caller for the same thing (the same builders, called with ANONYMOUS over the store just
 * written). The site build reads these through its typed collections; each page publishes its file as
 * its JSON twin. Returns the per-source outcomes and table counts for the manifest.
 */
export async function writeSiteJson(store: Store, dir: string, options: SiteJsonOptions): Promise<SiteJsonResult> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const write = async (path: string, reply: unknown) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), JSON.stringify(reply));
    files.push(path);
  };
  const ctx: IntelContext = { store, computedAt: options.computedAt, now: options.now, registry: await readRegistry(store) };

  // Each file is named after its page: `states/nsw.json` is the twin of `/states/nsw/`, `index.json` of `/`.
  // The registry as GET /v1/tenders/sources answers an anonymous caller: no homepage, a link to another site.
  await write('sources.json', sourcesReply(await readSources(store), ctx.computedAt, ANONYMOUS_LINKS));
  await write('index.json', await intelligenceSummary(ctx));
  await write('grants.json', await grantsSummary(ctx));
  for (const jurisdiction of JURISDICTIONS) {
    await write(`states/${jurisdictionSlug(jurisdiction)}.json`, await jurisdictionIntelligence(ctx, jurisdiction, ANONYMOUS));
  }
  // A page per buyer that has published anything (a tender, an award or a plan), named by its slug: the
  // spec's listing rule chooses the cohort of GET /v1/awards/buyers, not which buyers a reader can look up.
  // Details are read a batch of buyers at a time (a few set-based queries each) rather than buyer by buyer.
  const buyers = await ctx.store.all<{ buyer_key: string; slug: string }>('SELECT buyer_key, slug FROM buyers ORDER BY buyer_key');
  for (let start = 0; start < buyers.length; start += BUYER_BATCH) {
    const batch = buyers.slice(start, start + BUYER_BATCH);
    const details = await buyerDetails(ctx, batch.map((buyer) => buyer.buyer_key), ANONYMOUS);
    for (const { buyer_key, slug } of batch) {
      const detail = details.get(buyer_key);
      if (!detail) throw new Error(`buyer ${buyer_key} has no detail`);
      await write(`buyers/${slug}.json`, detail);
    }
  }
  const trades = await tradePairs(ctx);
  await write('trades.json', trades);
  // A pair has a page when it is eligible (its volume reaches the reply's minimum), as the reply says.
  for (const pair of trades.pairs.filter((p) => p.eligible)) {
    const trade = tradeById(pair.trade);
    const jurisdiction = pair.jurisdiction;
    if (!trade || !isJurisdiction(jurisdiction)) throw new Error(`trade pair names an unknown trade or jurisdiction: ${pair.trade} ${jurisdiction}`);
    await write(`trades/${trade.id}/${jurisdictionSlug(jurisdiction)}.json`, await tradeStateIntelligence(ctx, trade, jurisdiction, ANONYMOUS));
  }

  await writeTenderPages(ctx, write);

  const summaries = await store.all<Omit<SourceRunSummary, 'warnings'>>(`
    SELECT id, status, why, 0 AS records, records_invalid AS invalid, records_new AS new,
      records_updated AS updated, records_closed AS closed, pages, errors, duration_ms
    FROM sources ORDER BY id`);
  const [counts] = await store.all<Record<string, number>>(`
    SELECT (SELECT count(*) FROM tenders)::INTEGER AS tenders, (SELECT count(*) FROM awards)::INTEGER AS awards,
      (SELECT count(*) FROM award_releases)::INTEGER AS award_releases, (SELECT count(*) FROM plans)::INTEGER AS plans,
      (SELECT count(*) FROM companies)::INTEGER AS companies, (SELECT count(*) FROM abn_entities)::INTEGER AS abn_entities,
      (SELECT count(*) FROM sanctions_entries)::INTEGER AS sanctions_entries,
      (SELECT count(*) FROM sources)::INTEGER AS sources`);
  return { sources: summaries, counts: counts ?? {}, files };
}

/**
 * A page per tender the release holds, open or closed: `tenders/<key>.json` is the reply of
 * GET /v1/tenders/{key} to an anonymous caller, built from the same index and builder as the API's. The
 * page's buyer contracts and similar tenders come from the buyer and tender files the site already reads:
 * a context query per tender (GET /v1/tenders/{key}/context) cost about 50 ms each, hours at 50,000 tenders.
 */
async function writeTenderPages(ctx: IntelContext, write: (path: string, reply: unknown) => Promise<void>): Promise<void> {
  const index = await readTenderIndex(ctx.store);
  try {
    for (const key of await tenderKeys(ctx.store)) {
      const hit = index.get(key, ctx.now);
      if (!hit) continue;
      const reply = tenderReply(hit.tender, hit.open, ANONYMOUS_LINKS);
      await write(`tenders/${key}.json`, { ...reply, sources: attributions([reply.source], index.sources) });
    }
  } finally {
    index.close();
  }
}

/** An anonymous reader of a tender: no links to other sites (spec, Authentication 7). */
const ANONYMOUS_LINKS = { links: false };

async function tenderKeys(store: Store): Promise<string[]> {
  return (await store.all<{ tender_key: string }>('SELECT tender_key FROM tenders ORDER BY tender_key')).map((row) => row.tender_key);
}
