// The bids board without a browser: bids grouped by stage in the order a bid moves, soonest closing first; a
// card's lines in words (days left on the buyer's calendar, who leads it, the value as published).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boardColumns, boardSummary, cardLines, closingWords, valueWords, type BoardBid } from '../site/lib/bid-board.ts';

const bid = (id: string, stage: string, extra: Partial<BoardBid> = {}): BoardBid => ({
  bid_id: id,
  company_name: 'Harbour Fleet Services',
  title: `Tender ${id}`,
  tender_key: 'a'.repeat(32),
  buyer: 'Transport for NSW',
  jurisdiction: 'AU-NSW',
  closing_date: null,
  stage,
  owner: null,
  due_date: null,
  ...extra,
});

describe('the board', () => {
  it('has a column for each open stage in the order a bid moves, named in words, empty ones included', () => {
    const columns = boardColumns([bid('a', 'preparing')]);
    assert.deepEqual(columns.map((column) => column.heading), ['Deciding whether to bid', 'Preparing', 'In review', 'Submitted']);
    assert.deepEqual(columns.map((column) => column.bids.map((b) => b.bid_id)), [[], ['a'], [], []]);
    assert.equal(new Set(columns.map((column) => column.id)).size, columns.length, 'each heading has its own id');
  });

  it('puts won, lost and withdrawn bids in one Finished column, each card naming its outcome', () => {
    const columns = boardColumns([bid('w', 'won'), bid('l', 'lost'), bid('q', 'qualifying'), bid('x', 'withdrawn')]);
    assert.equal(columns.at(-1)!.heading, 'Finished');
    assert.deepEqual(columns.at(-1)!.bids.map((b) => b.bid_id).sort(), ['l', 'w', 'x']);
    assert.equal(cardLines(bid('w', 'won'), '2026-12-02T00:00:00Z', null).outcome, 'Won');
    assert.equal(cardLines(bid('q', 'qualifying'), '2026-12-02T00:00:00Z', null).outcome, '', 'an open bid\'s column names its stage');
  });

  it('orders each column soonest closing first, bids without a closing day last', () => {
    const columns = boardColumns([
      bid('none', 'qualifying'),
      bid('late', 'qualifying', { closing_date: '2027-03-01' }),
      bid('soon', 'qualifying', { closing_date: '2026-12-10' }),
    ]);
    assert.deepEqual(columns[0]!.bids.map((b) => b.bid_id), ['soon', 'late', 'none']);
  });
});

describe('a card', () => {
  // 13:30 UTC on 2 December is 00:30 on 3 December in Sydney: the buyer's day has already turned.
  const asOf = '2026-12-02T13:30:00Z';

  it('says when it closes and counts the days left on the buyer\'s calendar', () => {
    assert.equal(cardLines(bid('a', 'preparing', { closing_date: '2026-12-13' }), asOf, null).closing, 'Closes 13 Dec 2026 · 10 days left');
    assert.equal(cardLines(bid('b', 'preparing', { closing_date: '2026-12-03' }), asOf, null).closing, 'Closes today, 3 Dec 2026');
    assert.equal(cardLines(bid('c', 'preparing', { closing_date: '2026-12-04' }), asOf, null).closing, 'Closes 4 Dec 2026 · 1 day left');
    assert.equal(cardLines(bid('d', 'submitted', { closing_date: '2026-12-02' }), asOf, null).closing, 'Closed 2 Dec 2026');
    assert.equal(closingWords('2026-12-13', undefined), 'Closes 13 Dec 2026', 'without the buyer\'s calendar, the date alone');
  });

  it('says who leads it, or that nobody does, and a free-title bid for what it is', () => {
    assert.equal(cardLines(bid('a', 'preparing', { owner: { email: 'sam@example.com' } }), asOf, null).owner, 'Led by sam@example.com');
    assert.equal(cardLines(bid('a', 'preparing'), asOf, null).owner, 'Nobody leads it yet');
    assert.equal(cardLines(bid('a', 'preparing', { owner: { email: 'Sam@Example.com' } }), asOf, 'sam@example.com').owner, 'Led by you', 'the reader\'s own bid');
    const free = cardLines(bid('f', 'qualifying', { tender_key: null, buyer: null, jurisdiction: null }), asOf, null);
    assert.equal(free.buyer, 'A tender outside this site');
    assert.equal(free.closing, 'No closing date');
  });

  it('gives the value as the site writes money, or says it is not published', () => {
    assert.equal(valueWords('AUD 19800.00'), 'Value $19,800');
    assert.equal(valueWords('$50,000 - $100,000'), 'Value $50,000 - $100,000');
    assert.equal(valueWords(undefined), 'Value not published');
  });
});

describe('the status line', () => {
  it('counts the bids, and the organisations when there are several', () => {
    assert.equal(boardSummary([bid('a', 'preparing')], null), '1 bid.');
    assert.equal(boardSummary([bid('a', 'preparing'), bid('b', 'won', { company_name: 'Other Pty Ltd' })], null), '2 bids across 2 organisations.');
    assert.equal(boardSummary([bid('a', 'preparing')], 'Harbour Fleet Services'), '1 bid of Harbour Fleet Services.');
    assert.match(boardSummary([], null), /^No bids yet/);
  });
});
