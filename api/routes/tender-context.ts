import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { TenderContext, tenderContext } from '../../data/intelligence/tender-context.ts';
import type { Audience } from '../../data/intelligence/context.ts';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isIdentified } from '../middleware/caller.ts';
import { invalidInputHook } from '../schemas/invalid-input.ts';
import { requireRelease } from '../middleware/require-release.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import { intelContextOf } from '../schemas/intelligence.ts';
import { TenderKeyParams } from '../schemas/tender.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface TenderContextRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
}

type ContextEnv = ReleaseEnv & CallerEnv;

const contextRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/{key}/context',
  tags: ['Tenders'],
  summary: 'What the release knows around a tender: its buyer and similar work',
  description:
    "The buyer's nightly summary with its five most recent contracts and five ending soonest; contracts and open tenders " +
    "whose titles share the tender's title keywords (a heuristic, labelled `match`), with the count and value range of the " +
    'contracts. Supplier names are for a key or session; each contract says whether one is held. Either block is null when ' +
    'nothing is held.',
  request: { params: TenderKeyParams },
  responses: {
    200: { description: 'The context.', content: json(TenderContext) },
    400: errorReply('The key is not a page_key (32 lowercase hex characters, or `f` and 32).'),
    404: errorReply('No tender has this key.'),
    503: errorReply('The intelligence store is still loading (`Retry-After` says when to try again).'),
  },
});

/** GET /v1/tenders/{key}/context over the loaded release, cached per release, audience and minute. */
export function tenderContextRoutes(options: TenderContextRoutesOptions): OpenAPIHono<ContextEnv> {
  const { store } = options;
  const app = new OpenAPIHono<ContextEnv>({ defaultHook: invalidInputHook<ContextEnv>() });
  const audienceOf = (c: Pick<Context<ContextEnv>, 'get'>): Audience => ({ identified: isIdentified(c.get('caller')) });
  app.use('/v1/tenders/:key/context', requireRelease({ store }));
  // A release never changes; the reply depends on it, the audience, the key and the day ("open", "ending soonest").
  app.use('/v1/tenders/:key/context', options.cache.middleware());

  app.openapi(contextRoute, async (c) => {
    const { key } = c.req.valid('param');
    const reply = await tenderContext(intelContextOf(c.get('release'), store.now()), key, audienceOf(c));
    if (!reply) return c.json({ detail: `No tender has the key ${key.slice(0, 80)}; keys are the page_key of a search result.` }, 404);
    return c.json(reply, 200);
  });

  return app;
}
