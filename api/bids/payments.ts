import type { StateDb } from '../../data/state/db.ts';
import { newId } from '../../lib/tokens.ts';

/**
 * A bid's checkouts as stored (data/state/migrations/014_bid_payments.sql) and the one fact the rest of the
 * bid area asks of them: `bidIsPaid`. Rows only move forward: pending → paid, expired or failed; expired →
 * paid (a payment confirmed after the session's end still moved the money); paid never changes. So provider
 * events may arrive in any order and end in the same state.
 */

export type PaymentStatus = 'pending' | 'paid' | 'expired' | 'failed';

export interface BidPaymentRow {
  checkout_id: string;
  bid_id: string;
  status: PaymentStatus;
  session_id: string | null;
  checkout_url: string | null;
  amount: number;
  currency: string;
  requested_by: string;
  expires_at: string;
  paid_at: string | null;
  provider_event_ids: string;
  created_at: string;
  updated_at: string;
}

/** True when the provider has confirmed a payment for the bid: runs and run-raised actions need it. */
export async function bidIsPaid(state: StateDb, bidId: string): Promise<boolean> {
  return await state.get<{ paid: number }>("SELECT 1 AS paid FROM bid_payments WHERE bid_id = ? AND status = 'paid' LIMIT 1", bidId) !== undefined;
}

/** The bid's paid row, else its pending one, else its newest: what the bid's payment state reads as. */
export async function currentPayment(state: StateDb, bidId: string): Promise<BidPaymentRow | null> {
  return (
    await state.get<BidPaymentRow>(
      `SELECT * FROM bid_payments WHERE bid_id = ?
       ORDER BY CASE status WHEN 'paid' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, created_at DESC LIMIT 1`,
      bidId,
    ) ?? null
  );
}

export type Claim =
  | { ok: true; checkoutId: string }
  | { ok: false; reason: 'paid'; row: BidPaymentRow }
  | { ok: false; reason: 'pending'; row: BidPaymentRow };

/**
 * Claims the bid's one checkout: first ends pending rows whose time has passed (a session the provider has
 * expired, a claim whose request never finished), then refuses when the bid is paid or a checkout is still
 * pending, else inserts the claim, which counts as pending until `leaseMs` from `at`.
 */
export async function claimCheckout(state: StateDb, input: { bidId: string; accountId: string; amount: number; currency: string; at: Date; leaseMs: number }): Promise<Claim> {
  return await state.transaction(async () => {
    const at = input.at.toISOString();
    await state.run("UPDATE bid_payments SET status = 'expired', updated_at = ? WHERE bid_id = ? AND status = 'pending' AND expires_at <= ?", at, input.bidId, at);
    const paid = await state.get<BidPaymentRow>("SELECT * FROM bid_payments WHERE bid_id = ? AND status = 'paid' LIMIT 1", input.bidId);
    if (paid) return { ok: false, reason: 'paid', row: paid };
    const pending = await state.get<BidPaymentRow>("SELECT * FROM bid_payments WHERE bid_id = ? AND status = 'pending'", input.bidId);
    if (pending) return { ok: false, reason: 'pending', row: pending };
    const checkoutId = newId('chk_');
    await state.run(
      `INSERT INTO bid_payments (checkout_id, bid_id, status, amount, currency, requested_by, expires_at, created_at, updated_at)
       VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
      checkoutId,
      input.bidId,
      input.amount,
      input.currency,
      input.accountId,
      new Date(input.at.getTime() + input.leaseMs).toISOString(),
      at,
      at,
    );
    return { ok: true, checkoutId };
  });
}

/** Removes a claim no session was created for (the provider refused or failed): the bid may check out again at once. */
export async function clearClaim(state: StateDb, checkoutId: string): Promise<void> {
  await state.run("DELETE FROM bid_payments WHERE checkout_id = ? AND status = 'pending' AND session_id IS NULL", checkoutId);
}

/**
 * Binds the provider's session to the claim. False when the claim is no longer there to bind (its lease ran
 * out and another checkout replaced it); throws when the store fails.
 */
export async function bindSession(state: StateDb, checkoutId: string, session: { id: string; url: string; expiresAt: Date }, at: Date): Promise<boolean> {
  return (
    (await state.run(
      `UPDATE bid_payments SET session_id = ?, checkout_url = ?, expires_at = ?, updated_at = ?
       WHERE checkout_id = ? AND status = 'pending' AND session_id IS NULL`,
      session.id,
      session.url,
      session.expiresAt.toISOString(),
      at.toISOString(),
      checkoutId,
    )).changes === 1
  );
}

/** Ends a claim whose session could not be bound (the session is expired at the provider too). */
export async function abandonClaim(state: StateDb, checkoutId: string, at: Date): Promise<void> {
  await state.run("UPDATE bid_payments SET status = 'expired', updated_at = ? WHERE checkout_id = ? AND status = 'pending'", at.toISOString(), checkoutId);
}

/** The row a provider event is about: by its session id, else by the claim id the session carries in its metadata. */
export async function paymentForSession(state: StateDb, sessionId: string, checkoutId: string | undefined): Promise<BidPaymentRow | null> {
  const bySession = await state.get<BidPaymentRow>('SELECT * FROM bid_payments WHERE session_id = ?', sessionId);
  if (bySession) return bySession;
  if (checkoutId === undefined) return null;
  return await state.get<BidPaymentRow>('SELECT * FROM bid_payments WHERE checkout_id = ? AND session_id IS NULL', checkoutId) ?? null;
}

/** The statuses a row may move to from each (see the module comment). */
const NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  pending: ['paid', 'expired', 'failed'],
  expired: ['paid'],
  failed: [],
  paid: [],
};

/**
 * Moves a row to `status` because of provider event `eventId`, binding `sessionId` if the row had none yet
 * (the event overtook the binding). Returns false, changing nothing, when the row may not move there.
 */
export async function movePayment(state: StateDb, row: BidPaymentRow, status: PaymentStatus, change: { eventId: string; sessionId: string; at: Date }): Promise<boolean> {
  if (!NEXT[row.status].includes(status)) return false;
  const events = JSON.stringify([...(JSON.parse(row.provider_event_ids) as string[]), change.eventId]);
  const at = change.at.toISOString();
  return (
    (await state.run(
      `UPDATE bid_payments SET status = ?, session_id = COALESCE(session_id, ?), paid_at = CASE WHEN ? = 'paid' THEN ? ELSE paid_at END,
         provider_event_ids = ?, updated_at = ?
       WHERE checkout_id = ? AND status = ?`,
      status,
      change.sessionId,
      status,
      at,
      events,
      at,
      row.checkout_id,
      row.status,
    )).changes === 1
  );
}
