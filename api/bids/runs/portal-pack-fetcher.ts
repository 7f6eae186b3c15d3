import { lastFetch, packOffer, queueFetch, type PackFetchDeps } from '../pack-fetch.ts';
import type { PackFetcher } from './run-job.ts';

/**
 * The tender-pack fetch (../pack-fetch.ts) as a run's approved action: a run on a bid of the supported portal
 * with no readable files offers it, and once a person approves, the fetch runs as it does from the bid page
 * (the caller's daily count, robots.txt and spacing) and the run waits for it to end.
 */
export function portalPackFetcher(deps: PackFetchDeps): PackFetcher {
  return {
    offer(bid) {
      const offer = packOffer(deps, bid);
      return offer.available ? { portal: offer.portal, tender_url: offer.tender_url } : null;
    },
    async fetch(bid, args, accountId) {
      const offer = packOffer(deps, bid);
      if (!offer.available || offer.tender_url !== args['tender_url']) throw new Error(`The tender pack approved (${String(args['tender_url'])}) is no longer the one offered: ${offer.detail}`);
      const queued = queueFetch(deps, bid, accountId);
      if (queued.kind === 'refused') throw new Error(queued.detail);
      await queued.done;
      const ended = lastFetch(deps.state, bid.bid_id, deps.now());
      if (ended?.fetch_id !== queued.fetch.fetch_id || ended.state !== 'succeeded') throw new Error(`The tender pack was not fetched: ${ended?.detail ?? 'the fetch did not end'}`);
      return { files_added: ended.file_ids.length };
    },
  };
}
