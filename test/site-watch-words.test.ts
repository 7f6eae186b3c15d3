// The account page's words for each kind of saved watch, and the page each links back to.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { watchWords } from '../site/lib/watch-words.ts';

describe('watchWords', () => {
  it('says a saved search in words and links to the same search', () => {
    assert.deepEqual(watchWords('search', { q: 'cleaning', jurisdiction: 'AU-VIC', trade: 'cleaning', closing_within_days: 30 }), {
      text: 'Saved search: Tenders and grant rounds matching “cleaning”, in Victoria, in the trade Cleaning, closing within 30 days',
      href: '/search/?q=cleaning&jurisdiction=AU-VIC&trade=cleaning&closing_within_days=30',
    });
    assert.deepEqual(watchWords('search', { kind: 'tender', tier: 'council', closing_before: '2026-10-31' }), {
      text: 'Saved search: Tenders from local council buyers, closing by 31 Oct 2026',
      href: '/search/?kind=tender&tier=council&closing_before=2026-10-31',
    });
  });

  it('says a grants search as grant rounds and keeps kind=grant in its link', () => {
    assert.deepEqual(watchWords('grants', { jurisdiction: 'NZ', changed_within_days: 1 }), {
      text: 'Saved search: Grant rounds in New Zealand, with dates changed in the last 1 day',
      href: '/search/?kind=grant&jurisdiction=NZ&changed_within_days=1',
    });
  });

  it('links a company watch to the match page for its website or example', () => {
    assert.deepEqual(watchWords('company', { url: 'example.com.au' }), { text: 'Tenders that match the website example.com.au', href: '/match/?url=example.com.au' });
    assert.deepEqual(watchWords('company', { example: 'facilities' }), { text: 'Tenders that match a facility services company', href: '/match/?example=facilities' });
  });

  it('names a buyer watch by the buyer found, or by its key when the buyer was not found', () => {
    assert.deepEqual(watchWords('buyer', { buyer_key: 'au-nsw-3f2a9c1b7d4e' }, { name: 'Transport for NSW', path: '/buyers/nsw-transport-for-nsw/' }), {
      text: 'New contracts, plans and tenders of Transport for NSW',
      href: '/buyers/nsw-transport-for-nsw/',
    });
    assert.deepEqual(watchWords('buyer', { buyer_key: 'au-nsw-3f2a9c1b7d4e' }), { text: 'New contracts, plans and tenders of the buyer au-nsw-3f2a9c1b7d4e' });
  });

  it('says a signal filter in words, without a link (no page lists signals)', () => {
    assert.deepEqual(watchWords('signals', { kind: 'contract_expiry', jurisdiction: 'AU-QLD', q: 'fleet' }), { text: 'Signals: contracts ending matching “fleet”, in Queensland' });
    assert.deepEqual(watchWords('signals', {}), { text: 'Signals: every kind' });
  });

  it('names a tender watch by the tender\'s title and links its page', () => {
    const key = 'a'.repeat(32);
    assert.deepEqual(watchWords('tender', { page_key: key }, { name: 'Bridge inspection panel', path: `/tenders/${key}/` }), {
      text: 'Changes to the closing date of “Bridge inspection panel”, and its closing',
      href: `/tenders/${key}/`,
    });
    assert.deepEqual(watchWords('tender', { page_key: key }), { text: 'Changes to the closing date of a tender the release no longer holds', href: `/tenders/${key}/` });
  });
});
