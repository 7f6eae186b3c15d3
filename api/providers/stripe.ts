import Stripe from 'stripe';

/**
 * Stripe Checkout through the official `stripe` package: creating and expiring Checkout Sessions, and
 * verifying the webhook events Stripe signs (`Stripe-Signature`: an HMAC-SHA256 over `t.rawBody` with the
 * endpoint's `whsec_` secret; stripe.webhooks.constructEvent). Configured by `SVC_STRIPE_SECRET_KEY` and
 * `SVC_STRIPE_WEBHOOK_SECRET`; `SVC_STRIPE_API_BASE` points the client at another address speaking Stripe's
 * API (the local fake of `npm run fake-payments` and the tests), by the package's host, port and protocol
 * options.
 */

export const STRIPE_SECRET_KEY_ENV = 'SVC_STRIPE_SECRET_KEY';
export const STRIPE_WEBHOOK_SECRET_ENV = 'SVC_STRIPE_WEBHOOK_SECRET';
export const STRIPE_API_BASE_ENV = 'SVC_STRIPE_API_BASE';

/** Stripe's own tolerance for a signed event's age (the package's default, stated so the rule reads here). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface CheckoutRequest {
  /** The bid: Stripe's `client_reference_id`. */
  bidId: string;
  /** Our claim's id, carried in the session's metadata so an event that overtakes the binding still finds its row. */
  checkoutId: string;
  /** Minor units (cents). */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  productName: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** Sent as Stripe's Idempotency-Key: a retried create returns the same session. */
  idempotencyKey: string;
}

export interface CreatedSession {
  id: string;
  url: string;
  expiresAt: Date;
}

/** The payment provider as the checkout uses it; `stripeCheckout` is the real one. */
export interface CheckoutProvider {
  /** Resolves with the open session, or rejects with a `PaymentProviderError`. */
  createSession(request: CheckoutRequest): Promise<CreatedSession>;
  /** Ends an open session so it can no longer be paid; rejects with a `PaymentProviderError`. */
  expireSession(sessionId: string): Promise<void>;
  /** The event a webhook delivery carries, verified; throws a `WebhookSignatureError` when it is not Stripe's or too old. */
  verifyEvent(rawBody: Uint8Array, signature: string | undefined, receivedAt: Date): Stripe.Event;
}

/** The provider refused or could not be reached; `message` is a sentence for the caller. */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
}

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface StripeCheckoutOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another address speaking Stripe's API (default Stripe's own). */
  apiBase?: URL;
  /** One request's limit; default 20 s. */
  timeoutMs?: number;
}

export function stripeCheckout(options: StripeCheckoutOptions): CheckoutProvider {
  const base = options.apiBase;
  const stripe = new Stripe(options.secretKey, {
    // A create carries its Idempotency-Key, so the package's own retry of a dropped connection is safe.
    maxNetworkRetries: 1,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
  });
  const providerError = (error: unknown, doing: string) =>
    new PaymentProviderError(
      error instanceof Stripe.errors.StripeError
        ? `The payment provider ${error instanceof Stripe.errors.StripeConnectionError ? 'could not be reached' : `refused (${error.rawType ?? error.type}${error.statusCode ? `, HTTP ${error.statusCode}` : ''})`} while ${doing}: ${error.message}`
        : `The payment provider failed while ${doing}: ${String(error)}`,
    );
  return {
    async createSession(request) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: request.bidId,
            metadata: { bid_id: request.bidId, checkout_id: request.checkoutId },
            line_items: [{ quantity: 1, price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.productName } } }],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.floor(request.expiresAt.getTime() / 1000),
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (error) {
        throw providerError(error, 'creating the checkout session');
      }
      if (!session.url) throw new PaymentProviderError(`The payment provider created session ${session.id} without a hosted page address.`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    async expireSession(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        throw providerError(error, `expiring session ${sessionId}`);
      }
    },
    verifyEvent(rawBody, signature, receivedAt) {
      if (signature === undefined) throw new WebhookSignatureError('No Stripe-Signature header: only events Stripe signs are accepted.');
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAt.getTime());
      } catch (error) {
        throw new WebhookSignatureError(`The Stripe-Signature does not verify: ${(error as Error).message}.`);
      }
    },
  };
}

/**
 * The provider the environment configures, or null with the reason when payment is not set up: both secrets
 * are needed, since a session whose completion could not be verified would take money the bid never learns of.
 */
export function checkoutProviderFromEnv(env: NodeJS.ProcessEnv): { provider: CheckoutProvider } | { provider: null; missing: string } {
  const secretKey = env[STRIPE_SECRET_KEY_ENV];
  const webhookSecret = env[STRIPE_WEBHOOK_SECRET_ENV];
  if (!secretKey) return { provider: null, missing: STRIPE_SECRET_KEY_ENV };
  if (!webhookSecret) return { provider: null, missing: STRIPE_WEBHOOK_SECRET_ENV };
  const rawBase = env[STRIPE_API_BASE_ENV];
  let apiBase: URL | undefined;
  if (rawBase) {
    try {
      apiBase = new URL(rawBase);
    } catch {
      apiBase = undefined;
    }
    if (apiBase?.protocol !== 'http:' && apiBase?.protocol !== 'https:') throw new Error(`${STRIPE_API_BASE_ENV} must be an http or https URL, got ${rawBase}`);
  }
  return { provider: stripeCheckout({ secretKey, webhookSecret, ...(apiBase ? { apiBase } : {}) }) };
}
