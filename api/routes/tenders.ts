import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isIdentified } from '../middleware/caller.ts';
import { requireRelease } from '../middleware/require-release.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import {
  PortalSchema,
  TenderKeyParams,
  TenderReadSchema,
  TenderSearchQuery,
  TenderSearchSchema,
  TenderSourcesSchema,
  TenderStripSchema,
  attributionsOf,
  sourcesReply,
  tenderReply,
  type Audience,
} from '../schemas/tender.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface TenderRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
}

type TenderEnv = ReleaseEnv & CallerEnv;

/**
 * What this caller may see: links to other sites only with an API key or a signed-in session (spec,
 * Authentication 7). The one place that decides it for every tender route.
 */
function audienceOf(c: Pick<Context<TenderEnv>, 'get'>): Audience {
  return { links: isIdentified(c.get('caller')) };
}

const notLoaded = errorReply('No release is loaded yet (`Retry-After` says when to try again).');
const malformedKey = errorReply('The key is not a page_key (32 lowercase hex characters, or `f` and 32).');

const searchRoute = createRoute({
  method: 'get',
  path: '/v1/tenders',
  tags: ['Tenders'],
  summary: 'Search open tenders and grants',
  description:
    'Free text ranked by relevance (or by closing date with `sort=closing`), and by closing date (soonest first) without `q`. Every reply carries `coverage`: ' +
    'an empty result means no match among the sources searched, never that no such tender exists.',
  request: { query: TenderSearchQuery },
  responses: {
    200: { description: 'One page of matches, the total and the coverage of the search.', content: json(TenderSearchSchema) },
    400: errorReply('A parameter is malformed or out of range; `detail` names it.'),
    503: notLoaded,
  },
});

const stripRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/strip',
  tags: ['Tenders'],
  summary: 'Headline counts of open tenders',
  responses: {
    200: { description: 'Counts of open Australian tenders.', content: json(TenderStripSchema) },
    503: notLoaded,
  },
});

const sourcesRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/sources',
  tags: ['Tenders'],
  summary: 'The registry of sources behind the corpus',
  responses: {
    200: { description: 'Every source with its refresh mode, counts and the status of its last run.', content: json(TenderSourcesSchema) },
    503: notLoaded,
  },
});

const tenderRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/{key}',
  tags: ['Tenders'],
  summary: 'One tender by key',
  description: 'Closed tenders still answer, with `open: false`.',
  request: { params: TenderKeyParams },
  responses: {
    200: { description: 'The tender, with the licence attribution of its source.', content: json(TenderReadSchema) },
    400: malformedKey,
    404: errorReply('No tender has this key.'),
    503: notLoaded,
  },
});

const identified: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];

const portalRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/{key}/portal',
  tags: ['Tenders'],
  summary: 'The link to a tender on its original portal',
  description: 'For a caller with an API key or a signed-in session.',
  security: identified,
  request: { params: TenderKeyParams },
  responses: {
    200: { description: 'The link, the portal\'s name and whether the link opens a listing rather than the tender.', content: json(PortalSchema) },
    400: malformedKey,
    401: errorReply('No API key or session was presented.'),
    404: errorReply('No tender has this key, or no link is held for it.'),
    503: notLoaded,
  },
});

/** GET /v1/tenders, /v1/tenders/strip, /v1/tenders/sources, /v1/tenders/{key} and its portal link, over the loaded release. */
export function tenderRoutes(options: TenderRoutesOptions): OpenAPIHono<TenderEnv> {
  const { store } = options;
  const app = new OpenAPIHono<TenderEnv>();
  app.use('/v1/tenders/*', requireRelease({ store }));
  // Search replies depend on the release, what the caller may see, the query and the clock ("open", "closing
  // within N days"): all in the read cache's key, to the minute, so a kept reply is never a minute behind.
  app.use('/v1/tenders', options.cache.middleware());

  app.openapi(searchRoute, (c) => {
    const { limit, offset, sort, ...filters } = c.req.valid('query');
    const release = c.get('release');
    if (filters.source !== undefined && !release.tenders.hasSource(filters.source)) {
      return c.json({ detail: `Invalid query parameter source=${filters.source}: no source has this id; GET /v1/tenders/sources lists them.` }, 400);
    }
    const audience = audienceOf(c);
    const { total, hits } = release.tenders.search(filters, { limit, offset, sort }, store.now());
    const results = hits.map((hit) => tenderReply(hit.tender, hit.open, audience));
    return c.json(
      {
        total,
        results,
        coverage: { ...release.tenders.coverage(filters), last_run: release.computedAt },
        sources: attributionsOf(results.map((result) => result.source), release.tenders.sources),
      },
      200,
    );
  });

  // The literal paths are registered before /v1/tenders/{key}, which would otherwise take them as keys.
  app.openapi(stripRoute, (c) => c.json(c.get('release').tenders.strip(store.now()), 200));

  app.openapi(sourcesRoute, (c) => {
    const release = c.get('release');
    return c.json(sourcesReply(release.tenders.sources, release.computedAt, audienceOf(c)), 200);
  });

  app.openapi(tenderRoute, (c) => {
    const { key } = c.req.valid('param');
    const hit = c.get('release').tenders.get(key, store.now());
    if (!hit) return c.json({ detail: `No tender has the key ${key.slice(0, 80)}; keys are the page_key of a search result.` }, 404);
    const reply = tenderReply(hit.tender, hit.open, audienceOf(c));
    return c.json({ ...reply, sources: attributionsOf([reply.source], c.get('release').tenders.sources) }, 200);
  });

  app.openapi(portalRoute, (c) => {
    if (!audienceOf(c).links) {
      return c.json({ detail: 'Portal links need an API key (Authorization: Bearer svc_…) or a signed-in session. Sign in with POST /v1/auth/login.' }, 401);
    }
    const { key } = c.req.valid('param');
    const release = c.get('release');
    const hit = release.tenders.get(key, store.now());
    if (!hit) return c.json({ detail: `No tender has the key ${key.slice(0, 80)}; keys are the page_key of a search result.` }, 404);
    const { url, listing_url: listingUrl, source } = hit.tender.row;
    if (!url) return c.json({ detail: `No portal link is held for the tender ${key}; its source published none.` }, 404);
    return c.json(
      {
        url,
        portal_name: release.tenders.sources.find((row) => row.id === source)?.name ?? source,
        link_is_listing: listingUrl !== null && sameAddress(url, listingUrl),
      },
      200,
    );
  });

  return app;
}

/** Two links to the same page, ignoring a trailing slash and a fragment. */
function sameAddress(a: string, b: string): boolean {
  const normal = (link: string) => link.replace(/#.*$/, '').replace(/\/+$/, '');
  return normal(a) === normal(b);
}
