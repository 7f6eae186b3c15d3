// What the bid page knows of its bid: read in one call (the bid with its overview), read again after a
// change, and drawn by each of the page's sections in turn.
import { callApi } from '../../lib/account-api.ts';
import type { BidView } from '../../lib/bid-items.ts';
import { BidOverview, type Bid } from '../../lib/bids-api.ts';
import { say } from '../../lib/dom.ts';

export type Overview = BidOverview['overview'];

export class BidState {
  /** The bid's API address and whether the reader may change it (viewers read only). */
  readonly view: BidView;
  bid!: Bid;
  overview!: Overview;
  readonly #sections: (() => void)[] = [];

  constructor(bidId: string | null) {
    this.view = { api: (rest = '') => `/v1/bids/${encodeURIComponent(bidId ?? '')}${rest}`, mayWrite: true };
  }

  /** Adds a section's drawing, run (in the order added) each time the page is drawn. */
  drawsWith(draw: () => void): void {
    this.#sections.push(draw);
  }

  /** Reads the bid and everything its page shows, in one call; returns the refusal's sentence, or null. */
  async read(): Promise<string | null> {
    const reply = await callApi(BidOverview, this.view.api('?include=overview'));
    if (!reply.ok) return reply.detail;
    const { overview, ...bid } = reply.value;
    this.overview = overview;
    this.bid = bid;
    this.view.mayWrite = overview.may_write;
    return null;
  }

  drawAll(): void {
    for (const draw of this.#sections) draw();
  }

  async refresh(): Promise<string | null> {
    const refused = await this.read();
    if (refused === null) this.drawAll();
    return refused;
  }

  /** Reads the overview again after a change; a refusal is shown where `place` says. */
  async refreshInto(place: HTMLElement): Promise<void> {
    const refused = await this.refresh();
    if (refused !== null) say(place, refused);
  }
}
