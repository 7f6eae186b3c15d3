// The search page's tender search without a browser: a search read from and written to the page's URL, the API
// address and the saved-search body it stands for, and results and coverage in words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countdown } from '../site/lib/closing.ts';
import {
  apiPathOf, coverageView, resultView, searchFromQuery, searchPath, statusLine, suggestions, watchRequestOf, type FoundTender,
} from '../site/lib/tender-search.ts';

describe('a search in the URL', () => {
  it('reads every filter and writes them back the same', () => {
    const path = '/search/?q=cleaning&jurisdiction=AU-NSW&kind=tender&trade=cleaning&tier=state&closing_within_days=14&include_closed=true&sort=closing&page=2';
    const search = searchFromQuery(new URL(path, 'https://x.test').searchParams);
    assert.deepEqual(search, {
      q: 'cleaning', jurisdiction: 'AU-NSW', kind: 'tender', trade: 'cleaning', tier: 'state', closing_within_days: 14, include_closed: true, sort: 'closing', page: 2,
    });
    assert.equal(searchPath(search), path);
  });

  it('drops values the API would refuse, and reads AU (every state) as no jurisdiction', () => {
    const query = new URLSearchParams('q=%20%20&jurisdiction=AU&kind=award&trade=plumbers&tier=city&closing_within_days=400&include_closed=yes&sort=price&page=0');
    assert.deepEqual(searchFromQuery(query), {});
    assert.equal(searchPath({}), '/search/');
  });

  it('leaves the first page out of the URL, so going back to it gives the address the search began with', () => {
    assert.equal(searchPath({ q: 'roads', page: 1 }), '/search/?q=roads');
  });

  it('keeps the links of the trade pages', () => {
    assert.deepEqual(searchFromQuery(new URLSearchParams('jurisdiction=AU-VIC&trade=civil-works')), { jurisdiction: 'AU-VIC', trade: 'civil-works' });
  });
});

describe('what a search asks the API', () => {
  it('pages by offset and sends the order only with words', () => {
    assert.equal(apiPathOf({ q: 'roads', sort: 'closing', page: 3 }), '/v1/tenders?q=roads&sort=closing&limit=20&offset=40');
    assert.equal(apiPathOf({ trade: 'cleaning', sort: 'closing' }), '/v1/tenders?trade=cleaning&limit=20&offset=0');
  });

  it('saves the filters only: a watch mails open tenders new since the last email', () => {
    assert.deepEqual(watchRequestOf({ q: 'roads', jurisdiction: 'AU-NSW', closing_within_days: 7, include_closed: true, sort: 'closing', page: 2 }), {
      kind: 'search', criteria: { q: 'roads', jurisdiction: 'AU-NSW', closing_within_days: 7 },
    });
  });
});

describe('results in words', () => {
  const tender: FoundTender = {
    page_key: 'a'.repeat(32), title: 'Office cleaning', buyer: 'Department of Health', jurisdiction: 'AU-WA', kind: 'tender', trade: 'cleaning',
    closing_date: '2026-10-02', closing_at: '2026-10-02T06:00:00.000Z', open: true,
  };

  it('links the tender page and says when it closes in the buyer\'s time, with the days left', () => {
    assert.deepEqual(resultView(tender, '2026-09-25T01:00:00.000Z'), {
      href: `/tenders/${'a'.repeat(32)}/`,
      title: 'Office cleaning',
      about: 'Department of Health · Western Australia · Cleaning',
      closes: '2 Oct 2026, 2:00\u202fpm AWST',
      closesAt: '2026-10-02T06:00:00.000Z',
      countdown: 'Closes in 7 days',
      open: true,
    });
    const { closing_at: _time, ...dateOnly } = tender;
    assert.equal(resultView(dateOnly, '2026-09-25T01:00:00.000Z').closes, '2 Oct 2026 (no time published)');
    const { closing_at: _at, closing_date: _date, buyer: _buyer, ...undated } = { ...tender, kind: 'grant' };
    assert.deepEqual([resultView(undated, '2026-09-25T01:00:00.000Z').about, resultView(undated, '2026-09-25T01:00:00.000Z').countdown],
      ['Buyer not published · Western Australia · Grant round', 'Open, no closing date published']);
  });

  it('counts down on the buyer\'s calendar and never below today while the service says open', () => {
    assert.equal(countdown(true, 0), 'Closes today');
    assert.equal(countdown(true, 1), 'Closes in 1 day');
    assert.equal(countdown(true, -3), 'Open');
    assert.equal(countdown(false, 4), 'Closed');
  });

  it('says how many match, in what order, and which are shown', () => {
    assert.equal(statusLine({ q: 'cleaning' }, 6), '6 open tenders and grant rounds match “cleaning”, best match first. Showing 1–6.');
    assert.equal(statusLine({ q: 'cleaning', kind: 'tender', sort: 'closing', page: 2 }, 21), '21 open tenders match “cleaning”, closing soonest first. Showing 21–21.');
    assert.equal(statusLine({ kind: 'grant', include_closed: true }, 1), '1 grant round matches these filters, closing soonest first. Showing 1–1.');
    assert.equal(statusLine({ q: 'zebra' }, 0), 'No open tenders and grant rounds match “zebra”.');
  });

  it('suggests loosening each filter set when nothing matches', () => {
    assert.deepEqual(suggestions({ q: 'zebra crossings', jurisdiction: 'AU-TAS', closing_within_days: 3 }), [
      'Use fewer words: every word must appear in a tender (or its trade\'s name).',
      'Search every state, not only Tasmania.',
      'Allow a later closing date than within 3 days.',
      'Include closed tenders, to see what was asked for before.',
    ]);
  });

  const row = (id: string, name: string, jurisdiction: string, tier: string, kinds: string[], status = 'ok', tender_count = 3) =>
    ({ id, name, jurisdiction, tier, kinds, status, tender_count, award_count: 0, plan_count: 0 });
  const registry = [
    row('au_nsw_buy_nsw', 'buy.nsw opportunities', 'AU-NSW', 'state', ['tender']),
    row('au_vendorpanel', 'VendorPanel public tenders', 'AU', 'council', ['tender']),
    row('au_tenderlink', 'Tenderlink council tenders', 'AU', 'council', ['tender'], 'login_walled', 0),
    row('au_federal_austender_atm', 'AusTender approaches to market', 'AU', 'federal', ['tender']),
    row('au_nsw_contract_awards', 'buy.nsw contract award notices', 'AU-NSW', 'state', ['award'], 'ok', 0),
  ];
  const lastRun = '2026-09-25T01:00:00.000Z';

  it('names the sources a search covered, by the rule the API counted them with, and those not read with why', () => {
    const view = coverageView({ sources_total: 3, sources_empty: [{ source: 'au_tenderlink', status: 'login_walled', why: 'a supplier login' }], last_run: lastRun },
      registry, { jurisdiction: 'AU-NSW' });
    assert.equal(view.summary, 'Searched buy.nsw opportunities and VendorPanel public tenders; not read: Tenderlink council tenders (needs a login). Read on the last run, 25 Sep 2026, 11:00\u202fam AEST. A search finds only what these sources publish.');
    assert.deepEqual(view.empty, [{ source: 'au_tenderlink', name: 'Tenderlink council tenders', words: 'needs a login' }]);
  });

  it('says when no source publishes what was asked for, and falls back to the API\'s count should the registry disagree', () => {
    assert.equal(coverageView({ sources_total: 0, sources_empty: [], last_run: lastRun }, registry, { jurisdiction: 'NZ', kind: 'grant' }).summary,
      'No registered source publishes grant rounds in New Zealand, so there was nothing to search.');
    assert.match(coverageView({ sources_total: 7, sources_empty: [], last_run: lastRun }, registry, {}).summary, /^Searched 7 sources\./);
  });
});
