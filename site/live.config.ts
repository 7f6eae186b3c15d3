// Typed content collections over one release's site JSON (written by pipeline/site-json.ts). Each
// collection's schema is the reply schema of the API route for the same thing, so a page reads exactly
// what the API would answer an anonymous caller, and its JSON twin is that reply.
//
// Live collections rather than build-time ones: a build-time collection copies every entry through Astro's
// data store (serialised, bundled into the prerender code as a string, parsed back), which at production
// scale cost more than rendering every page. Read here, each file is parsed and checked by its schema once,
// in the build that renders it; the build fails on the first file that does not match.
import { defineLiveCollection } from 'astro:content';
import type { z } from 'zod';
import { BuyerDetail } from '../data/intelligence/buyers.ts';
import { GrantsSummary } from '../data/intelligence/grants.ts';
import { JurisdictionIntelligence } from '../data/intelligence/jurisdictions.ts';
import { IntelligenceSummary } from '../data/intelligence/summary.ts';
import { TenderSourcesSchema } from '../data/search/source-reply.ts';
import { TenderReadSchema } from '../data/search/tender-reply.ts';
import { TradePairs, TradeStateIntelligence } from '../data/intelligence/trades.ts';
import { jsonPages } from './lib/json-pages.ts';

/**
 * One collection per page kind. `folder` files are entries named by their path below it
 * (`trades/civil-works/nsw.json` is `civil-works/nsw` of `tradeStates`); a single file is one entry.
 */
const pages = <S extends z.ZodType>(pattern: string, schema: S, folder = '') =>
  defineLiveCollection({ loader: jsonPages(folder, pattern), schema });

export const collections = {
  sources: pages('sources.json', TenderSourcesSchema),
  home: pages('index.json', IntelligenceSummary),
  grants: pages('grants.json', GrantsSummary),
  states: pages('*.json', JurisdictionIntelligence, 'states/'),
  trades: pages('trades.json', TradePairs),
  tradeStates: pages('*/*.json', TradeStateIntelligence, 'trades/'),
  buyers: pages('*.json', BuyerDetail, 'buyers/'),
  tenders: pages('*.json', TenderReadSchema, 'tenders/'),
};
