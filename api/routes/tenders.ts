import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { TENDER_KEY_PATTERN } from '../../lib/keys.ts';
import type { ReleaseStore } from '../release-store.ts';
import { requireRelease, type ReleaseEnv } from '../middleware/require-release.ts';
import { canonicalQuery, responseCache } from '../middleware/response-cache.ts';
import {
  ErrorSchema,
  TenderKeyParams,
  TenderSchema,
  TenderSearchQuery,
  TenderSearchSchema,
  TenderSourcesSchema,
  TenderStripSchema,
  sourceReply,
  tenderReply,
  type Audience,
} from '../schemas/tender.ts';

export interface TenderRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
}

/**
 * What this caller may see. No caller identity exists yet, so every caller is anonymous and gets no
 * links to other sites (spec, Authentication 7); caller identity decides it here once it arrives.
 */
function audienceOf(_c: Context): Audience {
  return { links: false };
}

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const errorReply = (description: string) => ({ description, content: json(ErrorSchema) });
const notLoaded = errorReply('No release is loaded yet (`Retry-After` says when to try again).');

const searchRoute = createRoute({
  method: 'get',
  path: '/v1/tenders',
  tags: ['Tenders'],
  summary: 'Search open tenders and grants',
  description:
    'Free text ranked by relevance, or by closing date (soonest first) without `q`. Every reply carries `coverage`: ' +
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
    200: { description: 'The tender.', content: json(TenderSchema) },
    404: errorReply('No tender has this key.'),
    503: notLoaded,
  },
});

/** GET /v1/tenders, /v1/tenders/strip, /v1/tenders/sources and /v1/tenders/{key}, over the loaded release. */
export function tenderRoutes(options: TenderRoutesOptions): OpenAPIHono<ReleaseEnv> {
  const { store } = options;
  const app = new OpenAPIHono<ReleaseEnv>();
  app.use('/v1/tenders/*', requireRelease({ store }));
  // Search replies depend on the release, what the caller may see, the query and the clock ("open", "closing
  // within N days"); keyed to the minute, a cached reply is never more than a minute behind the clock.
  app.use(
    '/v1/tenders',
    responseCache({
      keyOf: (c) => {
        const release = (c as Context<ReleaseEnv>).get('release');
        const minute = Math.floor(store.now().getTime() / 60_000);
        return `${release.id}|${JSON.stringify(audienceOf(c))}|${minute}|${canonicalQuery(c.req.url)}`;
      },
    }),
  );

  app.openapi(searchRoute, (c) => {
    const { limit, offset, ...filters } = c.req.valid('query');
    const release = c.get('release');
    if (filters.source !== undefined && !release.tenders.hasSource(filters.source)) {
      return c.json({ detail: `Invalid query parameter source=${filters.source}: no source has this id; GET /v1/tenders/sources lists them.` }, 400);
    }
    const audience = audienceOf(c);
    const { total, hits } = release.tenders.search(filters, { limit, offset }, store.now());
    return c.json(
      {
        total,
        results: hits.map((hit) => tenderReply(hit.tender, hit.open, audience)),
        coverage: { ...release.tenders.coverage(filters), last_run: release.computedAt },
      },
      200,
    );
  });

  // The literal paths are registered before /v1/tenders/{key}, which would otherwise take them as keys.
  app.openapi(stripRoute, (c) => c.json(c.get('release').tenders.strip(store.now()), 200));

  app.openapi(sourcesRoute, (c) => {
    const release = c.get('release');
    const audience = audienceOf(c);
    return c.json({ sources: release.tenders.sources.map((source) => sourceReply(source, audience)), computed_at: release.computedAt }, 200);
  });

  app.openapi(tenderRoute, (c) => {
    const { key } = c.req.valid('param');
    // A malformed key cannot name a tender: it answers like any unknown key.
    const hit = TENDER_KEY_PATTERN.test(key) ? c.get('release').tenders.get(key, store.now()) : null;
    if (!hit) return c.json({ detail: `No tender has the key ${key.slice(0, 80)}; keys are the page_key of a search result.` }, 404);
    return c.json(tenderReply(hit.tender, hit.open, audienceOf(c)), 200);
  });

  return app;
}
