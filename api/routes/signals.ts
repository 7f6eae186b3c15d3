import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { scopeOf } from '../../data/intelligence/places.ts';
import { listSignals, SignalList } from '../../data/intelligence/signals.ts';
import type { Audience } from '../../data/intelligence/context.ts';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isIdentified } from '../middleware/caller.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import { NotReadySchema, SignalsQuery, intelContextOf, requireIntelligenceRelease } from '../schemas/intelligence.ts';
import { json } from '../schemas/openapi-content.ts';

export interface SignalRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
}

type SignalEnv = ReleaseEnv & CallerEnv;

/** Evidence links and incumbents are for a caller with an API key or a signed-in session (spec, Authentication 7). */
export function intelligenceAudience(c: Pick<Context<CallerEnv>, 'get'>): Audience {
  return { identified: isIdentified(c.get('caller')) };
}

const signalsRoute = createRoute({
  method: 'get',
  path: '/v1/signals',
  tags: ['Signals and intelligence'],
  summary: 'Forward-looking signals: contract expiries, planned procurements, recurring tenders',
  description:
    'Sorted by window start (undated last). `evidence_url` and `incumbent` need an API key or a signed-in session. ' +
    'A plan withdrawn by its agency is never returned.',
  request: { query: SignalsQuery },
  responses: {
    200: { description: 'One page of signals, the total and the attribution of the sources shown.', content: json(SignalList) },
    400: { description: 'A parameter is malformed or out of range; `detail` names it.', content: json(ErrorSchema) },
    503: { description: 'No release is loaded yet.', content: json(NotReadySchema) },
  },
});

/** GET /v1/signals over the loaded release. */
export function signalRoutes(options: SignalRoutesOptions): OpenAPIHono<SignalEnv> {
  const { store } = options;
  const app = new OpenAPIHono<SignalEnv>();
  app.use('/v1/signals', requireIntelligenceRelease(store));
  app.use('/v1/signals', options.cache.middleware());
  app.openapi(signalsRoute, async (c) => {
    const { kind, jurisdiction, limit, offset, ...filters } = c.req.valid('query');
    const reply = await listSignals(
      intelContextOf(c.get('release'), store.now()),
      { ...filters, ...(kind ? { kinds: [kind] } : {}), ...(jurisdiction ? { jurisdictions: scopeOf(jurisdiction, false) } : {}) },
      { limit, offset },
      intelligenceAudience(c),
    );
    return c.json(reply, 200);
  });
  return app;
}
