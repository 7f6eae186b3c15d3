import type { StateDb } from '../../../data/state/db.ts';

/**
 * Whether a bid has paid for its preparation: the one question runs and run-raised actions ask of the payment
 * side. The checkout (api/bids/README.md, "Paid bids") writes `bid_payments` when the provider confirms the
 * payment, and sets `refunded_at` on a refund; nothing here talks to a payment provider.
 */

export interface BidPayment {
  bid_id: string;
  paid_at: string;
  amount: number | null;
  currency: string | null;
  provider: string;
  provider_reference: string | null;
  refunded_at: string | null;
}

/** True while the bid has a payment that is not refunded. */
export function bidIsPaid(state: StateDb, bidId: string): boolean {
  return state.get<{ paid: number }>('SELECT 1 AS paid FROM bid_payments WHERE bid_id = ? AND refunded_at IS NULL', bidId) !== undefined;
}

export function bidPayment(state: StateDb, bidId: string): BidPayment | null {
  return state.get<BidPayment>('SELECT * FROM bid_payments WHERE bid_id = ?', bidId) ?? null;
}

export interface PaymentRecord {
  bidId: string;
  paidAt: Date;
  amount: number | null;
  currency: string | null;
  provider: string;
  providerReference: string | null;
}

/**
 * Records a confirmed payment (the checkout's webhook calls it; a replayed confirmation changes nothing).
 * Returns whether this call recorded it.
 */
export function recordBidPayment(state: StateDb, payment: PaymentRecord): boolean {
  return (
    state.run(
      `INSERT INTO bid_payments (bid_id, paid_at, amount, currency, provider, provider_reference) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (bid_id) DO NOTHING`,
      payment.bidId,
      payment.paidAt.toISOString(),
      payment.amount,
      payment.currency,
      payment.provider,
      payment.providerReference,
    ).changes === 1
  );
}

/** Marks the bid's payment refunded: the bid is unpaid from then on. */
export function recordBidRefund(state: StateDb, bidId: string, at: Date): boolean {
  return state.run('UPDATE bid_payments SET refunded_at = ? WHERE bid_id = ? AND refunded_at IS NULL', at.toISOString(), bidId).changes === 1;
}
