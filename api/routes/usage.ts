import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { CallerEnv } from '../accounts/caller.ts';
import { PricingSchema, UsageSchema } from '../schemas/account.ts';
import { WEEK_RULE, type Meter } from '../usage/meter.ts';
import { formatPrice, type BidSale } from '../bids/checkout.ts';
import { json } from '../schemas/openapi-content.ts';

export interface UsageRoutesOptions {
  meter: Pick<Meter, 'allowance' | 'caps' | 'week'>;
  /** Whether bid preparation can be bought here, at what price (api/bids/checkout.ts `bidSale`). */
  sale: BidSale;
}

const usageRoute = createRoute({
  method: 'get',
  path: '/v1/usage',
  tags: ['Usage'],
  summary: 'This week\'s checker usage',
  description:
    'For a key: its account\'s figures (or its own, when it belongs to no account). For a session: the account\'s. ' +
    `Anonymous: the figures shared by everyone on the caller's IP address. ${WEEK_RULE} Reads, tender browsing and the sandbox are never counted.`,
  responses: { 200: { description: 'Used, remaining and the reset time.', content: json(UsageSchema) } },
});

const pricingRoute = createRoute({
  method: 'get',
  path: '/v1/pricing',
  tags: ['Usage'],
  summary: 'Weekly allowances and the bid-preparation price',
  description: 'The allowances in force and the flat fee for preparing a bid, both from the running configuration: bid preparation is available only when a price is set and payment is set up.',
  responses: { 200: { description: 'Live caps and prices.', content: json(PricingSchema) } },
});

/** GET /v1/usage and GET /v1/pricing. */
export function usageRoutes(options: UsageRoutesOptions): OpenAPIHono<CallerEnv> {
  const { meter, sale } = options;
  const app = new OpenAPIHono<CallerEnv>();

  app.openapi(usageRoute, async (c) => {
    const caller = c.get('caller');
    const allowance = await meter.allowance(caller);
    return c.json(
      {
        key_id: caller.kind === 'key' ? caller.keyId : undefined,
        counted_per: allowance.countedPer,
        current: { limit: allowance.limit, used: allowance.used, remaining: allowance.remaining, reset_at: allowance.resetAt.toISOString() },
      },
      200,
    );
  });

  app.openapi(pricingRoute, (c) =>
    c.json(
      {
        checkers: {
          price: 0 as const,
          weekly_allowance: { anonymous_per_ip: meter.caps.anonymous, per_account: meter.caps.identified },
          week: WEEK_RULE,
          reset_at: meter.week().resetAt.toISOString(),
          not_counted: ['result reads', 'tender browsing', 'sandbox calls (Svc-Sandbox: true)'],
        },
        bid_preparation: {
          available: sale.available,
          ...(sale.price ? { amount: sale.price.amount, currency: sale.price.currency } : {}),
          detail: sale.available
            ? `Preparing a bid costs ${formatPrice(sale.price)}, paid once per bid by card through a hosted checkout (POST /v1/bids/{bid}/checkout).`
            : sale.detail,
        },
      },
      200,
    ),
  );

  return app;
}
