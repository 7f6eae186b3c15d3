import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexedTender, TenderRow } from '../search/tender-index.ts';
import { siteAddress } from './company-site.ts';
import { exampleProfile, MATCH_EXAMPLES } from './match-examples.ts';
import { companyProfile, rankTenders, stem } from './match.ts';

let counter = 0;
function tender(title: string, summary: string | null = null, trade: string | null = null): IndexedTender {
  counter += 1;
  const row = { tender_key: `k${counter}`, title, summary, trade, closing_date: '2026-07-01' } as TenderRow;
  return { row, jurisdiction: 'AU-NSW', kind: 'tender', tier: 'state', closingDate: '2026-07-01', trade: row.trade };
}

describe('companyProfile', () => {
  it('needs two phrases of a trade, or one multi-word phrase, before the company is taken to offer it', () => {
    assert.deepEqual(companyProfile(['We sell asphalt.']).trades, []);
    assert.deepEqual(companyProfile(['We sell asphalt and bitumen.']).trades.map((trade) => trade.trade), ['civil-works']);
    assert.deepEqual(companyProfile(['Stormwater drainage and civil works.']).capabilities.map((capability) => capability.phrase), ['civil works', 'drainage', 'stormwater']);
  });

  it('ignores generic words that name a trade only now and then, and meets plurals', () => {
    assert.deepEqual(companyProfile(['Our system keeps data on every review.']).trades, []);
    assert.equal(stem('roads'), 'road');
    assert.equal(stem('cleaning'), 'clean');
    assert.equal(stem('glass'), 'glass');
    assert.equal(stem('facilities'), 'facility');
  });

  it('is deterministic, and keeps site keywords for the keyword fallback', () => {
    const text = ['Guided kayak tours, kayak hire and paddle lessons on the harbour.'];
    assert.deepEqual(companyProfile(text), companyProfile(text));
    assert.deepEqual(companyProfile(text).keywords.slice(0, 2), ['kayak', 'guided']);
  });

  it('gives each example company its own trade', () => {
    assert.deepEqual(MATCH_EXAMPLES.map((example) => exampleProfile(example).trades[0]?.trade), ['civil-works', 'it-services', 'facilities-management']);
  });
});

describe('rankTenders', () => {
  const civil = companyProfile(['Roads, asphalt resurfacing, kerb and gutter, stormwater drainage and culverts.']);

  it('scores relative to the best result, with why and gaps, and leaves out tenders with no fit', () => {
    const drainage = tender('Stormwater drainage and culvert renewal');
    const reseal = tender('Road reseal', 'Bitumen sealing of rural roads');
    const cleaning = tender('Office cleaning');
    const ranking = rankTenders(civil, [cleaning, reseal, drainage]);
    assert.equal(ranking.degraded, false);
    if (ranking.degraded) return;
    assert.deepEqual(ranking.results.map((result) => result.tender), [drainage, reseal]);
    assert.equal(ranking.results[0]!.score, 100);
    assert.ok(ranking.results[1]!.score < 100 && ranking.results[1]!.score >= 1);
    assert.deepEqual(ranking.results[0]!.why.slice().sort(), ['culvert', 'drainage', 'stormwater']);
    assert.deepEqual(ranking.results[1]!.why, ['road']);
    assert.deepEqual(ranking.results[1]!.gaps.slice().sort(), ['bitumen', 'reseal', 'sealing']);
    assert.equal(ranking.considered, 3);
  });

  it('counts a tender of an offered trade as a fit through the trade alone, and names a trade not offered as a gap', () => {
    const byTrade = tender('RFT 2026-14', null, 'civil-works');
    const otherTrade = tender('Drainage of the landfill cell', null, 'waste');
    const ranking = rankTenders(civil, [byTrade, otherTrade]);
    assert.equal(ranking.degraded, false);
    if (ranking.degraded) return;
    const of = (wanted: IndexedTender) => ranking.results.find((result) => result.tender === wanted)!;
    assert.deepEqual(of(otherTrade).why, ['drainage']);
    assert.deepEqual(of(otherTrade).gaps, ['waste and recycling', 'landfill']);
    assert.deepEqual(of(byTrade).why, ['civil works']);
    assert.deepEqual(of(byTrade).gaps, []);
  });

  it('names no "removals" gap on a cleaning tender that asks for waste or rubbish removal, and still knows a removalist', () => {
    const cleaner = companyProfile(['Commercial cleaning, office cleaning, window cleaning and washroom hygiene services for schools and councils.']);
    const cleaning = tender('Cleaning services for council buildings', 'Cleaning and waste removal at council offices and depots, including rubbish removal.', 'cleaning');
    for (const profile of [cleaner, exampleProfile('facilities')]) {
      const ranking = rankTenders(profile, [cleaning]);
      assert.equal(ranking.degraded, false);
      if (ranking.degraded) return;
      assert.equal(ranking.results[0]!.tender, cleaning);
      assert.ok(!ranking.results[0]!.gaps.some((gap) => /remov/.test(gap)), ranking.results[0]!.gaps.join(', '));
    }
    const removalist = companyProfile(['Furniture removal and office relocation across Canberra; we are a licensed removalist.']);
    assert.deepEqual(removalist.trades.map((trade) => trade.trade), ['transport-logistics']);
  });

  it('keeps the given order between equal fits and returns at most `limit`', () => {
    const same = [tender('Kerb renewal, north'), tender('Kerb renewal, south'), tender('Kerb renewal, east')];
    const ranking = rankTenders(civil, same, { limit: 2 });
    assert.deepEqual(ranking.results.map((result) => result.tender), same.slice(0, 2));
  });

  it('degrades to keyword order without scores when the site names no capability', () => {
    const kayak = companyProfile(['Guided kayak tours, kayak hire and paddle lessons on the harbour.']);
    const hire = tender('Kayak hire concession');
    const harbour = tender('Harbour foreshore lighting', 'Kayak storage racks');
    const ranking = rankTenders(kayak, [tender('Road reseal'), harbour, hire]);
    assert.equal(ranking.degraded, true);
    if (!ranking.degraded) return;
    assert.match(ranking.reason, /names none of the trades/);
    assert.deepEqual(ranking.results.map((result) => result.tender), [hire, harbour]);
    assert.deepEqual(Object.keys(ranking.results[0]!), ['tender']);
  });

  it('returns nothing for a site with no text at all', () => {
    const ranking = rankTenders(companyProfile(['']), [tender('Road reseal')]);
    assert.deepEqual(ranking.results, []);
    assert.equal(ranking.degraded, true);
  });
});

describe('siteAddress', () => {
  it('reads a bare domain over https and keeps a given scheme', () => {
    assert.equal(siteAddress('example.com.au'), 'https://example.com.au');
    assert.equal(siteAddress(' example.com.au/about '), 'https://example.com.au/about');
    assert.equal(siteAddress('example.com.au:8443/x'), 'https://example.com.au:8443/x');
    assert.equal(siteAddress('http://example.com.au/'), 'http://example.com.au/');
    assert.equal(siteAddress('ftp://example.com.au/'), 'ftp://example.com.au/');
    assert.equal(siteAddress('javascript:alert(1)'), 'javascript:alert(1)');
  });
});
