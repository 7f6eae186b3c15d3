// The plan's tasks, counted back from the closing day in the buyer's time zone.
import { planItems } from '../../lib/bid-items.ts';
import { marked, say } from '../../lib/dom.ts';
import { day, plural } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function planSection(state: BidState): void {
  state.drawsWith(() => {
    const { plan } = state.overview;
    const zone = plan.time_zone ?? state.bid.buyer_time_zone;
    say(marked('plan-status'), plan.tasks.length > 0
      ? `${plural(plan.tasks.length, 'task')}, counted back from ${day(plan.closing_date)}${zone ? ` in the buyer's time (${zone})` : ''}.`
      : plan.closing_date ? 'No tasks yet: recompute to plan them.' : 'No plan: the bid has neither a closing day nor your own due date.');
    marked('plan').replaceChildren(...planItems(plan, zone));
  });
}
