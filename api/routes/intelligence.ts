import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { jurisdictionIntelligence, JurisdictionIntelligence } from '../../data/intelligence/jurisdictions.ts';
import { planContext, PlanContext } from '../../data/intelligence/plan-context.ts';
import { plannedIntelligence, PlannedIntelligence } from '../../data/intelligence/planned.ts';
import { jurisdictionFromPath, scopeOf } from '../../data/intelligence/places.ts';
import { intelligenceSummary, IntelligenceSummary } from '../../data/intelligence/summary.ts';
import { tradeById, tradePairs, TradePairs, tradeStateIntelligence, TradeStateIntelligence } from '../../data/intelligence/trades.ts';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import {
  JurisdictionParams, NotReadySchema, PlanIdParams, PlannedQuery, TradeStateParams, intelContextOf, requireIntelligenceRelease,
} from '../schemas/intelligence.ts';
import { intelligenceAudience } from './signals.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface IntelligenceRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
}

type IntelligenceEnv = ReleaseEnv & CallerEnv;

const notLoaded = { description: 'No release is loaded yet (`Retry-After` says when to try again).', content: json(NotReadySchema) };
const tags = ['Signals and intelligence'];

const plannedRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/planned',
  tags,
  summary: 'Planned procurements, filtered, with facets over all of them',
  description:
    'Procurement plan entries and forward notices still to come (window not ended, or none) unless a window filter says otherwise. ' +
    '`by_jurisdiction` counts the filtered rows; `figures`, `by_quarter`, `top_buyers` and `top_categories` ignore the row filters.',
  request: { query: PlannedQuery },
  responses: {
    200: { description: 'One page of planned procurements, with facets.', content: json(PlannedIntelligence) },
    400: errorReply('A filter value is malformed; `detail` names it.'),
    503: notLoaded,
  },
});

const planContextRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/planned/{plan_id}/context',
  tags,
  summary: 'A plan\'s buyer summary and that buyer\'s contracts for similar work (counts only)',
  request: { params: PlanIdParams },
  responses: {
    200: { description: 'The plan, its buyer\'s summary and the similar-work counts, labelled heuristic by `match`.', content: json(PlanContext) },
    404: errorReply('No planned procurement has this id (withdrawn plans are never returned).'),
    503: notLoaded,
  },
});

const summaryRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/summary',
  tags,
  summary: 'Headline counts and short previews across every jurisdiction',
  responses: { 200: { description: 'Counts and previews only.', content: json(IntelligenceSummary) }, 503: notLoaded },
});

const tradesRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/trades',
  tags,
  summary: 'Every trade × jurisdiction pair with anything to show, largest first',
  responses: { 200: { description: 'The pairs with their counts, the eligibility minimum, the award year and how trades are matched.', content: json(TradePairs) }, 503: notLoaded },
});

const tradeStateRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/trades/{trade}/{state}',
  tags,
  summary: 'One trade in one jurisdiction: open tenders, contracts ending, planned, recurring, buyers, concentration',
  description: 'Every figure carries `covers`. Supplier and holder names and the re-tender calendar need an API key or a signed-in session.',
  request: { params: TradeStateParams },
  responses: {
    200: { description: 'The trade page\'s figures.', content: json(TradeStateIntelligence) },
    404: errorReply('No such trade or jurisdiction.'),
    503: notLoaded,
  },
});

const jurisdictionRoute = createRoute({
  method: 'get',
  path: '/v1/intelligence/{jurisdiction}',
  tags,
  summary: 'One jurisdiction: contracts expiring, planned procurements, buyers and open tenders',
  request: { params: JurisdictionParams },
  responses: {
    200: { description: 'The jurisdiction\'s intelligence.', content: json(JurisdictionIntelligence) },
    404: errorReply('No such jurisdiction.'),
    503: notLoaded,
  },
});

/** The /v1/intelligence routes over the loaded release. Literal paths are registered before /v1/intelligence/{jurisdiction}. */
export function intelligenceRoutes(options: IntelligenceRoutesOptions): OpenAPIHono<IntelligenceEnv> {
  const { store } = options;
  const app = new OpenAPIHono<IntelligenceEnv>();
  app.use('/v1/intelligence/*', requireIntelligenceRelease(store));
  app.use('/v1/intelligence/*', options.cache.middleware());
  const contextOf = (c: { get(key: 'release'): IntelligenceEnv['Variables']['release'] }) => intelContextOf(c.get('release'), store.now());

  app.openapi(plannedRoute, async (c) => {
    const { jurisdiction, exact, ...params } = c.req.valid('query');
    const filters = { ...params, ...(jurisdiction ? { jurisdictions: scopeOf(jurisdiction, exact === '1') } : {}) };
    return c.json(await plannedIntelligence(contextOf(c), filters, intelligenceAudience(c)), 200);
  });

  app.openapi(planContextRoute, async (c) => {
    const { plan_id: planId } = c.req.valid('param');
    const reply = await planContext(contextOf(c), planId, intelligenceAudience(c));
    if (!reply) return c.json({ detail: `No planned procurement has the id ${planId.slice(0, 80)}; ids are the evidence_ref of GET /v1/intelligence/planned results.` }, 404);
    return c.json(reply, 200);
  });

  app.openapi(summaryRoute, async (c) => c.json(await intelligenceSummary(contextOf(c)), 200));

  app.openapi(tradesRoute, async (c) => c.json(await tradePairs(contextOf(c)), 200));

  app.openapi(tradeStateRoute, async (c) => {
    const { trade: tradeId, state } = c.req.valid('param');
    const trade = tradeById(tradeId);
    if (!trade) return c.json({ detail: `No trade has the id ${tradeId}; GET /v1/intelligence/trades lists the pairs, lib/trades.ts the trades.` }, 404);
    const jurisdiction = jurisdictionFromPath(state);
    if (!jurisdiction) return c.json({ detail: `No jurisdiction is called ${state}; use a slug such as nsw, au (federal) or nz.` }, 404);
    return c.json(await tradeStateIntelligence(contextOf(c), trade, jurisdiction, intelligenceAudience(c)), 200);
  });

  app.openapi(jurisdictionRoute, async (c) => {
    const { jurisdiction: segment } = c.req.valid('param');
    const jurisdiction = jurisdictionFromPath(segment);
    if (!jurisdiction) return c.json({ detail: `No jurisdiction is called ${segment}; use a code such as AU-NSW or a slug such as nsw, au or nz.` }, 404);
    return c.json(await jurisdictionIntelligence(contextOf(c), jurisdiction, intelligenceAudience(c)), 200);
  });

  return app;
}
