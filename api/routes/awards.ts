import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { BUYER_KEY_PATTERN } from '../../lib/keys.ts';
import { AwardList, listAwards, parseSupplierKey } from '../../data/intelligence/awards.ts';
import { BuyerCohort, BuyerDetail, NewBuyers, buyerDetail, countNewBuyers, hasSource, listBuyers, lookupBuyer } from '../../data/intelligence/buyers.ts';
import type { Audience, IntelContext } from '../../data/intelligence/context.ts';
import { SupplierEntity, supplierEntity } from '../../data/intelligence/suppliers.ts';
import { builtAwardIndex } from '../../data/search/award-index.ts';
import { whileHeld, type ReleaseEnv, type ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isIdentified } from '../middleware/caller.ts';
import type { ReadCache } from '../middleware/cached-reads.ts';
import { strictQuery, wholeNumber } from '../schemas/common.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface AwardRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The app's read cache: replies kept by release, audience, minute, path and query. */
  cache: ReadCache;
  /** Seconds a client is told to wait (`Retry-After`) while no release is loaded (default 30). */
  retryAfterSeconds?: number;
}

type AwardEnv = ReleaseEnv & CallerEnv;

const NotReady = z.object({ ready: z.literal(false), detail: z.string() }).openapi('NotReady');
const notReady = { description: 'The intelligence store is still loading (`Retry-After` says when to try again).', content: json(NotReady) };
const badInput = errorReply('A parameter is malformed or out of range; `detail` names it.');
const country = z.enum(['AU', 'NZ'], { error: 'must be AU or NZ' });
const isoDate = (description: string) => z.iso.date({ error: 'must be an ISO date such as 2026-10-01' }).openapi({ description });
const name = (description: string) => z.string().trim().min(1, { error: 'must not be empty' }).max(300, { error: 'must be at most 300 characters' }).openapi({ description });

const buyerKeyField = z.string().regex(BUYER_KEY_PATTERN, { error: 'must be a buyer key such as au-nsw-6ef7e680ac1d' });

const awardParameters = {
  buyer: name('Buyer name as published: exact, ignoring case and runs of spaces.').optional(),
  buyer_key: buyerKeyField.optional().openapi({ description: 'A buyer key.' }),
  supplier: name('Supplier name as published: exact, ignoring case and runs of spaces.').optional(),
  supplier_key: z.string().refine((value) => parseSupplierKey(value) !== null, { error: 'must be AU-ABN:<11 digits>, an ABN, or <scheme>:<id> such as AU-ACN:004085616' })
    .transform((value) => parseSupplierKey(value)!).optional().openapi({ type: 'string', description: '`AU-ABN:<abn>` (or the ABN alone) or `<scheme>:<id>`.' }),
  q: z.string().trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }).optional()
    .openapi({ description: 'Words that must each begin a word of the title, description or buyer (and supplier, for a key or session), case and accents aside; `road` finds `roads` and `roadworks`.' }),
  jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
    .openapi({ description: 'A country matches every jurisdiction within it.' }),
  since: isoDate('Awards dated on or after this day (signed, else started, else first collected).').optional(),
  limit: wholeNumber('Page size, at most 100.', 1, 100).default(20).openapi({ default: 20 }),
  offset: wholeNumber('Results to skip.', 0).default(0).openapi({ default: 0 }),
};

export const AwardQuery = strictQuery(awardParameters);
export const BuyersQuery = strictQuery({
  country: country.default('AU').openapi({ default: 'AU' }),
  order: z.enum(['count', 'value'], { error: 'must be count or value' }).default('count').openapi({ default: 'count', description: '`count`: most awards first; `value`: largest total first.' }),
});
export const NewBuyersQuery = strictQuery({ since: isoDate('Buyers first seen on or after this day.'), country: country.default('AU').openapi({ default: 'AU' }) });
export const LookupQuery = strictQuery({
  name: name('The buyer\'s name as published.'),
  jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).openapi({ description: 'The jurisdiction the name was published under.' }),
  source: z.string().regex(/^[a-z]+(_[a-z0-9]+)+$/, { error: 'must be a registry id such as au_vendorpanel (GET /v1/tenders/sources lists them)' }).optional()
    .openapi({ description: 'Registry id of the source that published the name.' }),
});
export const BuyerParams = z.object({
  buyer_key: z.string().openapi({ param: { name: 'buyer_key', in: 'path' }, pattern: BUYER_KEY_PATTERN.source, example: 'au-nsw-6ef7e680ac1d' }),
});
export const SupplierParams = z.object({
  identifier: z.string().openapi({ param: { name: 'identifier', in: 'path' }, description: 'An ABN (digits, or spaced) or `<scheme>:<id>`.', example: 'AU-ABN:53004085616' }),
});

const tags = ['Contract awards'];
const awardsRoute = createRoute({
  method: 'get', path: '/v1/awards', tags, summary: 'Search contract awards',
  description:
    'Most recent first. Supplier names and identifiers and source links are for a key or session; `withheld` says what was left out. ' +
    'The supplier filters (`supplier`, `supplier_key`) need a key or session too.',
  request: { query: AwardQuery },
  responses: {
    200: { description: 'One page of contracts, the total and the attribution of their sources.', content: json(AwardList) },
    400: badInput,
    401: errorReply('A supplier filter without an API key or a signed-in session, or a key that is not valid.'),
    503: notReady,
  },
});
const buyersRoute = createRoute({
  method: 'get', path: '/v1/awards/buyers', tags, summary: 'Listed buyers of a country',
  description: 'A buyer is listed with at least 20 awards in the window (three years to the run day) or at least 5 open tenders.',
  request: { query: BuyersQuery },
  responses: { 200: { description: 'The listed buyers.', content: json(BuyerCohort) }, 400: badInput, 503: notReady },
});
const newBuyersRoute = createRoute({
  method: 'get', path: '/v1/awards/buyers/new', tags, summary: 'How many buyers are new since a date',
  request: { query: NewBuyersQuery },
  responses: { 200: { description: 'The count of buyers first seen on or after `since`.', content: json(NewBuyers) }, 400: badInput, 503: notReady },
});
const lookupRoute = createRoute({
  method: 'get', path: '/v1/awards/buyers/lookup', tags, summary: 'Resolve a published buyer name to a buyer',
  description:
    'Resolves under the jurisdiction first, then the federal key of the same country, never across states; a source filing everything under ' +
    'the country alone never resolves to a national buyer. On an exact miss two labelled heuristics are tried (the name without a trailing ' +
    'division code; for a country-only name, the one state it names) and the reply adds `match`.',
  request: { query: LookupQuery },
  responses: { 200: { description: 'The buyer detail.', content: json(BuyerDetail) }, 400: badInput, 404: errorReply('No buyer resolves from this name.'), 503: notReady },
});
const buyerRoute = createRoute({
  method: 'get', path: '/v1/awards/buyers/{buyer_key}', tags, summary: 'One buyer: figures, expiring contracts, plans, recent awards, open tenders',
  description:
    '`top_suppliers` gives every caller the shares and a key or session the names too. The spec\'s buyer figures are always present, null when unknown.',
  request: { params: BuyerParams },
  responses: { 200: { description: 'The buyer detail.', content: json(BuyerDetail) }, 404: errorReply('No buyer has this key.'), 503: notReady },
});
const supplierRoute = createRoute({
  method: 'get', path: '/v1/awards/suppliers/{identifier}', tags, summary: 'One supplier: contracts, buyers, categories and register standing',
  description:
    'An ABN, or any `<scheme>:<id>` the awards carry (an ACN published beside an ABN names the supplier keyed by that ABN). ' +
    'Anonymous callers get the counts, with names, identifiers and the contracts and buyers lists withheld.',
  request: { params: SupplierParams },
  responses: {
    200: { description: 'The supplier entity.', content: json(SupplierEntity) },
    400: errorReply('The identifier is neither an ABN nor `<scheme>:<id>`.'),
    404: errorReply('No contract held carries this identifier.'),
    503: notReady,
  },
});

const SUPPLIER_FILTER_NEEDS_IDENTITY =
  'Filtering contract awards by supplier (supplier, supplier_key) needs an API key (Authorization: Bearer svc_…) or a signed-in session; ' +
  'sign in with POST /v1/auth/login and create a key with POST /v1/keys, or leave the supplier filters out.';

/** Awards routes answer 503 `{ready: false, detail}` until a release is loaded (spec, Errors). */
function requireIntelligence(options: AwardRoutesOptions): MiddlewareHandler<AwardEnv> {
  const retryAfter = String(options.retryAfterSeconds ?? 30);
  return async function requireIntelligenceHandler(c, next) {
    const state = options.store.state();
    if (!state.ready) {
      c.header('Retry-After', retryAfter);
      return c.json({ ready: false as const, detail: `${state.detail} Try again later.` }, 503);
    }
    c.set('release', state.release);
    await whileHeld(options.store, state.release, next);
  };
}

/** GET /v1/awards, the buyer routes and the supplier route, over the loaded release's store. */
export function awardRoutes(options: AwardRoutesOptions): OpenAPIHono<AwardEnv> {
  const { store } = options;
  const retryAfter = String(options.retryAfterSeconds ?? 30);
  const app = new OpenAPIHono<AwardEnv>();
  const audienceOf = (c: Pick<Context<AwardEnv>, 'get'>): Audience => ({ identified: isIdentified(c.get('caller')) });
  const contextOf = (c: Pick<Context<AwardEnv>, 'get'>): IntelContext => {
    const release = c.get('release');
    return { store: release.store, computedAt: release.computedAt, now: store.now(), registry: release.tenders.sources };
  };
  for (const path of ['/v1/awards', '/v1/awards/*']) {
    app.use(path, requireIntelligence(options));
    // A release never changes; replies depend on it, the audience, the path and query and the day ("open", "expiring").
    app.use(path, options.cache.middleware());
  }

  app.openapi(awardsRoute, async (c) => {
    const { limit, offset, ...filters } = c.req.valid('query');
    // Which contracts a supplier holds is what anonymous callers are not shown (spec, Supplier entity).
    if ((filters.supplier !== undefined || filters.supplier_key !== undefined) && !isIdentified(c.get('caller'))) {
      return c.json({ detail: SUPPLIER_FILTER_NEEDS_IDENTITY }, 401);
    }
    // the release's award index is read once, in the background; until then the list is still loading
    if (!builtAwardIndex(c.get('release').store)) {
      c.header('Retry-After', retryAfter);
      return c.json({ ready: false as const, detail: `The contract awards of release ${c.get('release').id} are still being indexed. Try again later.` }, 503);
    }
    return c.json(await listAwards(contextOf(c), filters, { limit, offset }, audienceOf(c)), 200);
  });

  // The literal paths come before /v1/awards/buyers/{buyer_key}, which would otherwise take them as keys.
  app.openapi(buyersRoute, async (c) => {
    const { country: wanted, order } = c.req.valid('query');
    return c.json(await listBuyers(contextOf(c), wanted, order), 200);
  });

  app.openapi(newBuyersRoute, async (c) => {
    const { since, country: wanted } = c.req.valid('query');
    return c.json(await countNewBuyers(contextOf(c), since, wanted), 200);
  });

  app.openapi(lookupRoute, async (c) => {
    const { name: wanted, jurisdiction, source } = c.req.valid('query');
    const ctx = contextOf(c);
    if (source !== undefined && !hasSource(ctx, source)) {
      return c.json({ detail: `Invalid query parameter source=${source}: no source has this id; GET /v1/tenders/sources lists them.` }, 400);
    }
    const detail = await lookupBuyer(ctx, { name: wanted, jurisdiction, ...(source === undefined ? {} : { source }) }, audienceOf(c));
    if (!detail) return c.json({ detail: `No buyer resolves from the name "${wanted.slice(0, 120)}" under ${jurisdiction}.` }, 404);
    return c.json(detail, 200);
  });

  app.openapi(buyerRoute, async (c) => {
    const { buyer_key: key } = c.req.valid('param');
    // a malformed key names no buyer: it answers like any unknown key
    const detail = BUYER_KEY_PATTERN.test(key) ? await buyerDetail(contextOf(c), key, audienceOf(c)) : null;
    if (!detail) return c.json({ detail: `No buyer has the key ${key.slice(0, 80)}; keys look like au-nsw-6ef7e680ac1d (GET /v1/awards/buyers lists them).` }, 404);
    return c.json(detail, 200);
  });

  app.openapi(supplierRoute, async (c) => {
    const { identifier } = c.req.valid('param');
    const key = parseSupplierKey(identifier);
    if (!key) {
      return c.json({ detail: `Invalid path parameter identifier=${identifier.slice(0, 80)}: give an ABN (11 digits, spaces allowed) or <scheme>:<id> such as AU-ACN:004085616.` }, 400);
    }
    const entity = await supplierEntity(contextOf(c), key, audienceOf(c));
    if (!entity) return c.json({ detail: `No contract held carries the supplier identifier ${key}.` }, 404);
    return c.json(entity, 200);
  });

  return app;
}
