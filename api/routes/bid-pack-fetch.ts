import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, requireBidAccount, type BidEnv } from '../bids/access.ts';
import { DAILY_FETCHES, dailyQuota, lastFetch, offerView, packOffer, PACK_PORTAL, queueFetch, type PackFetchDeps } from '../bids/pack-fetch.ts';
import { FetchSchema, PackFetchStatusSchema } from '../bids/pack-fetch-schemas.ts';
import { BidParams } from '../bids/schemas.ts';
import { invalidInputAnswers } from '../middleware/request-checks.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

const tags = ['Bids'];

const statusRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/pack/fetch',
  tags,
  security: BID_SECURITY,
  summary: 'The tender-pack fetch: offer and last fetch',
  description: `Whether the bid's tender documents can be fetched from ${PACK_PORTAL.name} (the one supported portal, whose documents are public), the caller's fetches today and the bid's last fetch.`,
  request: { params: BidParams },
  responses: {
    200: { description: 'The offer, today\'s count and the last fetch.', content: json(PackFetchStatusSchema) },
    401: errorReply(NO_ACCOUNT_REPLY),
    404: errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.'),
  },
});

const queueRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/pack/fetch',
  tags,
  security: BID_SECURITY,
  summary: 'Fetch the tender pack into the bid\'s files',
  description:
    `Queues one fetch, which starts at once in the background: the tender page and its "Download tender" pack are read from ${PACK_PORTAL.name} ` +
    `through the SSRF-safe fetcher with the source's robots.txt and spacing, and the pack joins the bid's files, read like an upload. At most ${DAILY_FETCHES} a caller per Sydney day. Owners, admins and members may fetch.`,
  request: { params: BidParams },
  responses: {
    202: { description: 'Queued; GET …/pack/fetch follows it.', content: json(FetchSchema) },
    401: errorReply(NO_ACCOUNT_REPLY),
    403: errorReply("The caller's role may not change bids (viewers read only)."),
    404: errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.'),
    409: errorReply('A fetch of this bid\'s pack is already queued or running.'),
    422: errorReply(`The bid's tender is not one of ${PACK_PORTAL.name} (or the bid is on a free title): there is no public pack to fetch.`),
    429: errorReply(`The caller has queued ${DAILY_FETCHES} fetches this Sydney day; \`Retry-After\` and \`detail\` say when the count starts again.`),
    503: errorReply('No release is loaded yet, so the bid\'s tender cannot be looked up; retry after `Retry-After`.'),
  },
});

/** GET and POST /v1/bids/{bid}/pack/fetch (api/bids/pack-fetch.ts). */
export function bidPackFetchRoutes(deps: PackFetchDeps): OpenAPIHono<BidEnv> {
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  app.use('/v1/bids/*', requireBidAccount);
  const door = bidDoor(app, deps.state);

  door.read(statusRoute, async (c) => {
    const now = deps.now();
    return c.json(
      {
        offer: offerView(packOffer(deps, c.var.bid)),
        today: await dailyQuota(deps.state, c.get('accountId'), now),
        last_fetch: await lastFetch(deps.state, c.var.bid.bid_id),
      },
      200,
    );
  });

  door.write(queueRoute, async (c) => {
    const outcome = await queueFetch(deps, c.var.bid, c.get('accountId'));
    if (outcome.kind === 'queued') return c.json(outcome.fetch, 202);
    if (outcome.retryAfterSeconds !== undefined) c.header('Retry-After', String(outcome.retryAfterSeconds));
    return c.json({ detail: outcome.detail }, outcome.status);
  });

  return app;
}
