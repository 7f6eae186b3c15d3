import { lastFetch, packOffer, queueFetch, type PackFetchDeps } from '../pack-fetch.ts';
import type { PackFetcher } from './run-job.ts';

/**
 * The tender-pack fetch (../pack-fetch.ts) as a run's approved action: a run on a bid of the supported portal
 * with no readable files offers it, and once a person approves, the fetch is queued as its own job as it is from
 * the bid page (the caller's daily count, robots.txt and spacing); the run waits, and is queued again when the
 * fetch ends.
 */
export function portalPackFetcher(deps: PackFetchDeps): PackFetcher {
  return {
    offer(bid) {
      const offer = packOffer(deps, bid);
      return offer.available ? { portal: offer.portal, tender_url: offer.tender_url } : null;
    },
    async queue(bid, args, accountId, resumeJob) {
      const offer = packOffer(deps, bid);
      if (!offer.available || offer.tender_url !== args['tender_url']) throw new Error(`The tender pack approved (${String(args['tender_url'])}) is no longer the one offered: ${offer.detail}`);
      const queued = await queueFetch(deps, bid, accountId, resumeJob);
      if (queued.kind === 'refused') throw new Error(queued.detail);
      return { fetch_id: queued.fetch.fetch_id };
    },
    async outcome(bid, fetchId) {
      const ended = await lastFetch(deps.state, bid.bid_id);
      if (ended?.fetch_id !== fetchId) return { state: 'failed', detail: 'A later fetch replaced it.', files_added: 0 };
      if (ended.state !== 'succeeded' && ended.state !== 'failed') return null;
      return { state: ended.state, detail: ended.detail ?? '', files_added: ended.file_ids.length };
    },
  };
}
