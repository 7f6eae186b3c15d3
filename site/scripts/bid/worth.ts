// The worth-bidding card, or why it cannot be built yet.
import { worthCard } from '../../lib/bid-items.ts';
import { element, marked } from '../../lib/dom.ts';
import type { BidState } from './bid-state.ts';

export function worthSection(state: BidState): void {
  state.drawsWith(() => {
    const worth = state.overview.worth_bidding;
    marked('worth').replaceChildren(...(worth.card ? worthCard(worth.card) : [element('p', worth.detail ?? 'The card cannot be built yet.')]));
  });
}
