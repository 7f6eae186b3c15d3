// Buying bid preparation: whether it is paid, an open checkout to finish, or the button that opens the hosted
// checkout; and, back from the checkout, what happened there.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Checkout, type Payment } from '../../lib/bids-api.ts';
import { link, marked, say } from '../../lib/dom.ts';
import { day, instant } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function paymentSection(state: BidState): void {
  const buy = marked<HTMLButtonElement>('buy');

  function showPayment(payment: Payment): void {
    const checkout = payment.checkout;
    const status = marked('payment-status');
    if (payment.paid) {
      status.replaceChildren(`Paid${checkout?.paid_at ? ` on ${day(checkout.paid_at)}` : ''}: this bid's preparation is bought.`);
      buy.hidden = true;
      return;
    }
    if (checkout?.status === 'pending' && checkout.url) {
      status.replaceChildren(`${payment.detail} A checkout is open until ${instant(checkout.expires_at)}: `, link('finish paying', checkout.url), '.');
      buy.hidden = true;
      return;
    }
    status.replaceChildren(payment.detail);
    buy.hidden = !state.view.mayWrite || !payment.available;
  }

  state.drawsWith(() => showPayment(state.overview.payment));
  buy.addEventListener('click', async () => {
    const refused = marked('buy-refused');
    say(refused, '');
    await openCheckout(state, refused, buy);
  });
}

/** Opens the hosted checkout of the bid, or says in `refused` why it cannot (`button` disabled meanwhile). */
export async function openCheckout(state: BidState, refused: HTMLElement, button: HTMLButtonElement): Promise<void> {
  const pending = state.overview.payment.checkout;
  if (pending?.status === 'pending' && pending.url) {
    location.assign(pending.url);
    return;
  }
  const started = await answered(() => callApi(Checkout, state.view.api('/checkout'), { method: 'POST' }), refused, button);
  if (started === null) return;
  if (!started.url) {
    say(refused, 'The checkout has no payment page yet; try again in a moment.');
    return;
  }
  location.assign(started.url);
}

/** Back from the hosted checkout (`&checkout=paid` or `cancelled`): say what happened. */
export function showCheckoutReturn(payment: Payment): void {
  const returned = new URLSearchParams(location.search).get('checkout');
  if (returned === null) return;
  const note = marked('payment-return');
  if (returned === 'cancelled') say(note, 'You left the checkout without paying; nothing was charged.');
  else if (payment.paid) say(note, 'Thank you: the payment is confirmed.');
  else say(note, 'Thank you: the payment provider is confirming the payment; reload this page in a moment to see it.');
}
