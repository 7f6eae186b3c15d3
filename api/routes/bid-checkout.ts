import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { StateDb } from '../../data/state/db.ts';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, requireBidAccount, type BidEnv } from '../bids/access.ts';
import { startCheckout, type BidSale } from '../bids/checkout.ts';
import { receivePaymentEvent } from '../bids/payment-events.ts';
import { CheckoutSchema, WebhookReceiptSchema } from '../bids/payment-schemas.ts';
import { BidParams } from '../bids/schemas.ts';
import { invalidInputAnswers } from '../middleware/request-checks.ts';
import { WebhookSignatureError } from '../providers/stripe.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface BidCheckoutRoutesOptions {
  state: StateDb;
  /** Whether bid preparation can be bought here, and through which provider (api/bids/checkout.ts `bidSale`). */
  sale: BidSale;
  /** The service's public address: the payment page sends the payer back to the bid page there. */
  publicUrl: string;
  now?: () => Date;
  /** Where a session that could not be expired after a failed binding is reported. */
  log?: (line: string) => void;
}

/** Where Stripe delivers events: the endpoint to register in the Stripe dashboard (README, "Payment"). */
export const PAYMENT_WEBHOOK_PATH = '/v1/payments/stripe/webhook';

const checkoutRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/checkout',
  tags: ['Bids'],
  security: BID_SECURITY,
  summary: 'Buy bid preparation: a hosted checkout',
  description:
    'The flat fee of GET /v1/pricing, once per bid. Answers the hosted payment page (`url`) to send the payer to; the bid is paid when the ' +
    `payment provider confirms it (its webhook, ${PAYMENT_WEBHOOK_PATH}). One checkout at a time per bid. Owners, admins and members may buy.`,
  request: { params: BidParams },
  responses: {
    201: { description: 'The checkout, pending until paid.', content: json(CheckoutSchema) },
    401: errorReply(NO_ACCOUNT_REPLY),
    403: errorReply("The caller's role may not change bids (viewers read only)."),
    404: errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.'),
    409: errorReply('A checkout for this bid is already pending (`detail` gives its page), or the bid is already paid.'),
    502: errorReply('The payment provider refused or could not be reached; nothing was charged and the bid may check out again at once.'),
    503: errorReply('Payment is not set up on this server; or the session could not be recorded, was closed at the provider, and the caller retries after `Retry-After`.'),
  },
});

const webhookRoute = createRoute({
  method: 'post',
  path: PAYMENT_WEBHOOK_PATH,
  tags: ['Bids'],
  summary: 'Payment provider events (Stripe webhook)',
  description:
    'Stripe delivers Checkout Session events here, signed with the endpoint secret (`Stripe-Signature`, at most 300 seconds old). ' +
    '`checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` mark the bid paid; `…async_payment_failed` and `…expired` end the checkout. ' +
    'Each event id is acted on once; events may come in any order. Other events and unknown sessions are acknowledged and ignored.',
  responses: {
    200: { description: 'Received (also for a replay, and for an event this service ignores).', content: json(WebhookReceiptSchema) },
    400: errorReply('The signature is missing, wrong or too old, or the body is not a Stripe event.'),
    503: errorReply('Payment is not set up on this server, so no event can be verified.'),
  },
});

/**
 * POST /v1/bids/{bid}/checkout and the payment provider's webhook. The checkout sits under `/v1/bids/*` behind
 * the bid area's account check; the webhook is called by Stripe, not a person, and is authenticated by its
 * signature alone.
 */
export function bidCheckoutRoutes(options: BidCheckoutRoutesOptions): OpenAPIHono<BidEnv> {
  const { state, sale } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.error(line));
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  app.use('/v1/bids/*', requireBidAccount);
  const door = bidDoor(app, state);

  door.write(checkoutRoute, async (c) => {
    if (!sale.available) {
      c.header('Retry-After', '3600');
      return c.json({ detail: `${sale.detail} Ask the operator to set up payment; GET /v1/pricing says when it is on sale.` }, 503);
    }
    const outcome = await startCheckout({ state, provider: sale.provider, price: sale.price, publicUrl: options.publicUrl, now, log }, c.var.bid, c.get('accountId'));
    if (outcome.kind === 'created') return c.json(outcome.checkout, 201);
    if (outcome.retryAfterSeconds !== undefined) c.header('Retry-After', String(outcome.retryAfterSeconds));
    return c.json({ detail: outcome.detail }, outcome.status);
  });

  app.openapi(webhookRoute, async (c) => {
    if (!sale.available) return c.json({ detail: 'Payment is not set up on this server, so no payment event can be verified.' }, 503);
    const raw = new Uint8Array(await c.req.arrayBuffer());
    let event;
    try {
      event = sale.provider.verifyEvent(raw, c.req.header('stripe-signature'), now());
    } catch (error) {
      if (error instanceof WebhookSignatureError) return c.json({ detail: error.message }, 400);
      return c.json({ detail: `The body is not a Stripe event: ${(error as Error).message}` }, 400);
    }
    const received = await receivePaymentEvent(state, event, now());
    return c.json({ received: true as const, duplicate: !received.first, outcome: received.outcome }, 200);
  });

  return app;
}
