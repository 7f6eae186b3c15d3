import type { StateDb } from '../../data/state/db.ts';
import { PaymentProviderError, type CheckoutProvider } from '../providers/stripe.ts';
import { abandonClaim, bindSession, claimCheckout, clearClaim, type BidPaymentRow } from './payments.ts';
import type { BidRecord } from './access.ts';

/**
 * POST /v1/bids/{bid}/checkout (spec, States: Bid checkout): claim the bid's one checkout, ask the provider
 * for a session, bind the session to the claim, answer its hosted page. Each failure leaves the bid able to
 * check out again: a provider failure clears the claim at once; a binding that fails expires the session at
 * the provider (so no one can pay a session the bid does not know) and the caller retries shortly.
 */

/** How long a claim counts as pending while the provider is asked: longer than the client's time limit and one retry. */
export const CLAIM_LEASE_MS = 2 * 60 * 1000;
/** A hosted checkout page stays payable this long (Stripe allows 30 minutes to 24 hours). */
export const SESSION_LIFETIME_MS = 60 * 60 * 1000;
/** Seconds a caller waits after a binding failure (503). */
export const BINDING_RETRY_SECONDS = 5;

export interface BidPrice {
  /** Major units, as SVC_BID_PRICE is written. */
  amount: number;
  currency: string;
}

export interface CheckoutDeps {
  state: StateDb;
  provider: CheckoutProvider;
  price: BidPrice;
  publicUrl: string;
  now: () => Date;
  log: (line: string) => void;
}

export type CheckoutOutcome =
  | { kind: 'created'; checkout: CheckoutView }
  | { kind: 'refused'; status: 409 | 502 | 503; detail: string; retryAfterSeconds?: number };

/** A checkout as the API shows it. */
export interface CheckoutView {
  checkout_id: string;
  bid_id: string;
  status: BidPaymentRow['status'];
  /** The hosted payment page; null while the claim awaits the provider. */
  url: string | null;
  /** Major units of `currency`. */
  amount: number;
  currency: string;
  expires_at: string;
  paid_at: string | null;
  created_at: string;
}

/** Currencies Stripe charges in whole units (Stripe docs, "Zero-decimal currencies"). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** The amount in the minor units Stripe charges (`149.5` AUD → 14950). */
export function minorUnits(price: BidPrice): number {
  return ZERO_DECIMAL.has(price.currency) ? Math.round(price.amount) : Math.round(price.amount * 100);
}

export function majorUnits(amount: number, currency: string): number {
  return ZERO_DECIMAL.has(currency) ? amount : amount / 100;
}

export function checkoutView(row: BidPaymentRow): CheckoutView {
  return {
    checkout_id: row.checkout_id,
    bid_id: row.bid_id,
    status: row.status,
    url: row.checkout_url,
    amount: majorUnits(row.amount, row.currency),
    currency: row.currency,
    expires_at: row.expires_at,
    paid_at: row.paid_at,
    created_at: row.created_at,
  };
}

export async function startCheckout(deps: CheckoutDeps, bid: BidRecord, accountId: string): Promise<CheckoutOutcome> {
  const { state, provider, now } = deps;
  const amount = minorUnits(deps.price);
  const claim = await claimCheckout(state, { bidId: bid.bid_id, accountId, amount, currency: deps.price.currency, at: now(), leaseMs: CLAIM_LEASE_MS });
  if (!claim.ok) {
    if (claim.reason === 'paid') return { kind: 'refused', status: 409, detail: `This bid is already paid for (${claim.row.paid_at ?? 'paid'}); start a run with POST /v1/bids/${bid.bid_id}/runs.` };
    const where = claim.row.checkout_url ? ` Finish it at ${claim.row.checkout_url}` : ' It is being created now; read it again in a moment.';
    return { kind: 'refused', status: 409, detail: `A checkout for this bid is already pending until ${claim.row.expires_at}.${where}` };
  }
  const bidPage = `${deps.publicUrl}/account/bids/bid/?id=${encodeURIComponent(bid.bid_id)}`;
  let session;
  try {
    session = await provider.createSession({
      bidId: bid.bid_id,
      checkoutId: claim.checkoutId,
      amount,
      currency: deps.price.currency,
      productName: `Bid preparation: ${bid.title}`.slice(0, 250),
      successUrl: `${bidPage}&checkout=paid`,
      cancelUrl: `${bidPage}&checkout=cancelled`,
      expiresAt: new Date(now().getTime() + SESSION_LIFETIME_MS),
      idempotencyKey: `bid-checkout-${claim.checkoutId}`,
    });
  } catch (error) {
    await clearClaim(state, claim.checkoutId);
    const reason = error instanceof PaymentProviderError ? error.message : `The payment provider failed: ${String(error)}`;
    return { kind: 'refused', status: 502, detail: `${reason} Nothing was charged; try again now.` };
  }
  let bound = false;
  let bindingProblem = 'the checkout was replaced while the provider answered';
  try {
    bound = await bindSession(state, claim.checkoutId, session, now());
  } catch (error) {
    bindingProblem = `the state store failed (${(error as Error).message})`;
  }
  if (!bound) {
    try {
      await provider.expireSession(session.id);
    } catch (error) {
      deps.log(`checkout ${claim.checkoutId}: session ${session.id} could not be expired after its binding failed: ${(error as Error).message}`);
    }
    try {
      await abandonClaim(state, claim.checkoutId, now());
    } catch {
      // The store is what failed; the claim's lease ends it instead.
    }
    return {
      kind: 'refused',
      status: 503,
      detail: `The checkout could not be recorded (${bindingProblem}), so its payment page was closed before anyone could pay; nothing was charged. Try again in ${BINDING_RETRY_SECONDS} seconds.`,
      retryAfterSeconds: BINDING_RETRY_SECONDS,
    };
  }
  const row = (await state.get<BidPaymentRow>('SELECT * FROM bid_payments WHERE checkout_id = ?', claim.checkoutId))!;
  return { kind: 'created', checkout: checkoutView(row) };
}

/**
 * Whether bid preparation can be bought here, from the configuration: a price (SVC_BID_PRICE) and a payment
 * provider (api/providers/stripe.ts). GET /v1/pricing and the checkout both read it, so they agree.
 */
export type BidSale =
  | { available: true; price: BidPrice; provider: CheckoutProvider }
  | { available: false; price: BidPrice | undefined; detail: string };

export function bidSale(price: BidPrice | undefined, provider: CheckoutProvider | null): BidSale {
  if (price && provider) return { available: true, price, provider };
  const detail = !price
    ? 'Bid preparation is not on sale on this server: no price is set for it.'
    : `Payment is not set up on this server, so bid preparation (${formatPrice(price)}) cannot be bought here yet.`;
  return { available: false, price, detail };
}

/** `AUD 149.00`. */
export function formatPrice(price: BidPrice): string {
  return `${price.currency} ${price.amount.toFixed(ZERO_DECIMAL.has(price.currency) ? 0 : 2)}`;
}
