import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { grantsSummary, GrantsSummary } from '../../data/intelligence/grants.ts';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import { NotReadySchema, intelContextOf, requireIntelligenceRelease } from '../schemas/intelligence.ts';
import { json } from '../schemas/openapi-content.ts';

export interface GrantRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
}

const summaryRoute = createRoute({
  method: 'get',
  path: '/v1/grants/summary',
  tags: ['Signals and intelligence'],
  summary: 'Open grant rounds: how many, closing this month, and the value of those stating one',
  description: '`value_open` sums only rounds stating a value (read from the published value text; a range is not one value) and `with_value` counts them.',
  responses: {
    200: { description: 'The grants summary.', content: json(GrantsSummary) },
    503: { description: 'No release is loaded yet.', content: json(NotReadySchema) },
  },
});

/** GET /v1/grants/summary over the loaded release. */
export function grantRoutes(options: GrantRoutesOptions): OpenAPIHono<ReleaseEnv & CallerEnv> {
  const { store } = options;
  const app = new OpenAPIHono<ReleaseEnv & CallerEnv>();
  app.use('/v1/grants/summary', requireIntelligenceRelease(store));
  app.use('/v1/grants/summary', options.cache.middleware());
  app.openapi(summaryRoute, async (c) => c.json(await grantsSummary(intelContextOf(c.get('release'), store.now())), 200));
  return app;
}
