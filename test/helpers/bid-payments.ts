import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/**
 * A bid paid for as the checkout's webhook leaves it (a `paid` row of `bid_payments`), for tests of what a
 * paid bid may do without going through the provider; test/bids-checkout.test.ts tests the checkout itself.
 */
export async function markBidPaid(state: StateDb, bidId: string, at: Date, amount = 4900, currency = 'aud'): Promise<void> {
  const when = at.toISOString();
  await state.run(
    `INSERT INTO bid_payments (checkout_id, bid_id, status, session_id, checkout_url, amount, currency, requested_by, expires_at, paid_at, created_at, updated_at)
     SELECT ?, bid_id, 'paid', ?, NULL, ?, ?, created_by, ?, ?, ?, ? FROM bids WHERE bid_id = ?`,
    newId('checkout_'),
    newId('cs_test_'),
    amount,
    currency,
    when,
    when,
    when,
    when,
    bidId,
  );
}

/** The bid's payment withdrawn (the delayed debit failed after it read as paid): the bid is unpaid again. */
export async function withdrawBidPayment(state: StateDb, bidId: string, at: Date): Promise<void> {
  await state.run("UPDATE bid_payments SET status = 'failed', updated_at = ? WHERE bid_id = ? AND status = 'paid'", at.toISOString(), bidId);
}
