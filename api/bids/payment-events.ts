import type Stripe from 'stripe';
import type { StateDb } from '../../data/state/db.ts';
import { movePayment, paymentForSession, type BidPaymentRow, type PaymentStatus } from './payments.ts';

/**
 * What a verified Stripe event does to a bid's checkout, once per event id: the event is recorded in the
 * same transaction as its change, so a replayed delivery (Stripe retries until it gets a 2xx, and may
 * deliver twice) finds its id and changes nothing. Events may come in any order; `movePayment` lets a row
 * only move forward, so the end state does not depend on the order.
 */

export interface EventOutcome {
  /** False for a delivery of an event already received. */
  first: boolean;
  /** What came of it: `paid`, `expired`, `failed`, `pending` or `ignored: <why>`. */
  outcome: string;
}

/** The checkout session events this service acts on, and the status each moves the row to. */
function targetStatus(event: Stripe.Event, session: Stripe.Checkout.Session): PaymentStatus | null {
  switch (event.type) {
    case 'checkout.session.completed':
      // A delayed method (a bank debit) completes the session unpaid; `…async_payment_succeeded` pays it later.
      return session.payment_status === 'paid' || session.payment_status === 'no_payment_required' ? 'paid' : null;
    case 'checkout.session.async_payment_succeeded':
      return 'paid';
    case 'checkout.session.async_payment_failed':
      return 'failed';
    case 'checkout.session.expired':
      return 'expired';
    default:
      return null;
  }
}

const HANDLED = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired']);

/** Why a session's own facts do not match the checkout it names, or null when they do. */
function mismatch(row: BidPaymentRow, session: Stripe.Checkout.Session): string | null {
  if (session.client_reference_id !== row.bid_id) return `its client_reference_id ${session.client_reference_id ?? 'null'} is not bid ${row.bid_id}`;
  if (session.amount_total !== null && session.amount_total !== row.amount) return `it charged ${session.amount_total}, not ${row.amount}`;
  if (session.currency !== null && session.currency.toUpperCase() !== row.currency) return `it charged in ${session.currency}, not ${row.currency}`;
  return null;
}

/**
 * Applies a verified event once: a delivery of an event already received answers the first delivery's
 * outcome and changes nothing. The check and the change share one immediate transaction, so two deliveries
 * at once (or two instances) cannot both apply it.
 */
export async function receivePaymentEvent(state: StateDb, event: Stripe.Event, at: Date): Promise<EventOutcome> {
  return await state.transaction(async () => {
    const seen = await state.get<{ outcome: string }>('SELECT outcome FROM payment_events WHERE event_id = ?', event.id);
    if (seen) return { first: false, outcome: seen.outcome };
    const session = event.type.startsWith('checkout.session.') ? (event.data.object as Stripe.Checkout.Session) : null;
    let outcome: string;
    let row: BidPaymentRow | null = null;
    if (event.type === 'charge.refunded') {
      // The spec's States table has no refund row (its bid rows know only paid and unpaid, its checkout rows end at
      // the session), so a refund does not take a bid's paid status back: it is recorded for a person to act on.
      outcome = 'ignored: charge.refunded: the specification defines no refund transition for a bid, so the bid stays paid; a person handles the refund';
    } else if (!session || !HANDLED.has(event.type)) {
      outcome = `ignored: ${event.type} is not an event this service acts on`;
    } else {
      row = await paymentForSession(state, session.id, session.metadata?.['checkout_id']);
      const target = targetStatus(event, session);
      const wrong = row && mismatch(row, session);
      if (!row) outcome = `ignored: no checkout of this service has session ${session.id}`;
      else if (wrong) outcome = `ignored: session ${session.id} does not match checkout ${row.checkout_id}: ${wrong}`;
      else if (target === null && row.status === 'pending') outcome = 'pending: session completed, its payment not yet confirmed';
      else if (target === null) outcome = `ignored: checkout ${row.checkout_id} is ${row.status}; a completion without payment changes nothing`;
      else if (target !== null && await movePayment(state, row, target, { eventId: event.id, sessionId: session.id, at })) outcome = target;
      else outcome = `ignored: checkout ${row.checkout_id} is ${row.status} and does not become ${target}`;
    }
    const changed = row !== null && !outcome.startsWith('ignored');
    await state.run(
      'INSERT INTO payment_events (event_id, type, session_id, checkout_id, outcome, received_at) VALUES (?, ?, ?, ?, ?, ?)',
      event.id,
      event.type,
      session?.id ?? null,
      changed ? row!.checkout_id : null,
      outcome,
      at.toISOString(),
    );
    return { first: true, outcome };
  });
}
