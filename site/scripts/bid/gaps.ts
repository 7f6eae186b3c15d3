// The bid's gaps, counted by category, each with the partners who can close it.
import { gapItem } from '../../lib/bid-items.ts';
import { marked, say } from '../../lib/dom.ts';
import { count, plural } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function gapsSection(state: BidState): void {
  const status = marked('gaps-status');
  state.drawsWith(() => {
    const { gaps, counts } = state.overview.gaps;
    const perCategory = Object.entries(counts).map(([category, n]) => `${category.replaceAll('_', ' ')} ${count(n)}`).join(', ');
    const open = gaps.filter((gap) => gap.status === 'open').length;
    say(status, gaps.length === 0 ? 'No gaps found. Gaps are worked out when you recompute: mandatory requirements without evidence, documents that expire, certificates or insurance you lack.' : `${plural(gaps.length, 'gap')}, ${count(open)} open (${perCategory}).`);
    marked('gaps').replaceChildren(...gaps.map((gap) => gapItem(state.view, gap)));
  });
}
