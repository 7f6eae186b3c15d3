import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TenderIndex, categoryPrefix, type TenderFilters, type TenderRow } from '../data/search/tender-index.ts';
import { termsOf } from '../data/search/text-index.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');

function row(key: string, fields: Partial<TenderRow> = {}): TenderRow {
  return {
    tender_key: key.padStart(32, '0'),
    source: 'au_nsw_buy_nsw',
    source_tag: 'NSW',
    kind: 'tender',
    title: 'Untitled',
    buyer: null,
    reference: null,
    jurisdiction: 'AU-NSW',
    tier: 'state',
    summary: null,
    category: null,
    category_name: null,
    trade: null,
    notice_type: null,
    published_date: null,
    closing_date: '2026-07-01',
    closing_at: null,
    value_text: null,
    url: 'https://buy.nsw.gov.au/notices/1',
    listing_url: null,
    first_seen: '2026-06-01T00:00:00.000Z',
    last_seen: '2026-06-01T00:00:00.000Z',
    dates_changed_at: null,
    stale: false,
    source_homepage: null,
    ...fields,
  };
}

function titles(index: TenderIndex, filters: TenderFilters, limit = 100, offset = 0): string[] {
  return index.search(filters, { limit, offset }, NOW).hits.map((hit) => hit.tender.row.title);
}

describe('search terms', () => {
  it('lower-cases, folds accents, splits at punctuation and drops stop words', () => {
    assert.deepEqual(termsOf('Supply of Māori-language TEXTBOOKS, and the café fit-out'), ['supply', 'maori', 'language', 'textbooks', 'cafe', 'fit', 'out']);
    assert.deepEqual(termsOf('  '), []);
  });

  it('reads a UNSPSC parent written with trailing zero pairs as its prefix', () => {
    assert.equal(categoryPrefix('80100000'), '8010');
    assert.equal(categoryPrefix('80101500'), '801015');
    assert.equal(categoryPrefix('8010'), '8010');
    assert.equal(categoryPrefix('10000000'), '10');
  });
});

describe('relevance search', () => {
  it('requires every word, finds stems and one-typo words, and boosts the title', async () => {
    const index = await TenderIndex.build(
      [
        row('1', { title: 'Office cleaning', summary: 'Hospital wards and roads' }),
        row('2', { title: 'Hospital cleaning services', closing_date: '2026-07-02' }),
        row('3', { title: 'Roadworks', summary: 'Resurfacing' }),
        row('4', { title: 'Catering', buyer: 'Hospital Trust' }),
      ],
      [],
    );
    assert.deepEqual(titles(index, { q: 'hospital cleaning' }), ['Hospital cleaning services', 'Office cleaning']);
    const hospital = titles(index, { q: 'hospital' });
    assert.equal(hospital[0], 'Hospital cleaning services', 'a title match outranks a summary or buyer match');
    assert.deepEqual(hospital.slice(1).sort(), ['Catering', 'Office cleaning']);
    assert.deepEqual(titles(index, { q: 'hospitl' }), hospital, 'one typo in a long word still matches');
    assert.deepEqual((titles(index, { q: 'road' })).sort(), ['Office cleaning', 'Roadworks']);
    assert.deepEqual(titles(index, { q: 'hospital roadworks' }), []);
    assert.deepEqual(titles(index, { q: 'the of and' }), [], 'stop words alone match nothing');
  });

  it('pages the best matches exactly as a full ranking would', async () => {
    // 150 matching tenders with distinct scores (the word repeats a different number of times) and ties.
    const rows = Array.from({ length: 150 }, (_, i) =>
      row(String(i + 1), {
        title: `Tender ${i}`,
        summary: `${'drainage '.repeat((i % 7) + 1)}works`,
        closing_date: `2026-07-${String((i % 28) + 1).padStart(2, '0')}`,
      }),
    );
    rows.push(row('999', { title: 'Unrelated', summary: 'catering' }));
    const index = await TenderIndex.build(rows, []);
    assert.equal(index.search({ q: 'drainage' }, { limit: 1, offset: 0 }, NOW).total, 150);

    // offset 50 + limit 100 covers all 150, so that page comes from a full sort; smaller pages keep only the best.
    const fullFrom50 = titles(index, { q: 'drainage' }, 100, 50);
    assert.equal(fullFrom50.length, 100);
    const top100 = titles(index, { q: 'drainage' }, 100, 0);
    assert.deepEqual(top100.slice(50), fullFrom50.slice(0, 50));
    for (const offset of [0, 7, 60, 95, 140]) {
      const page = titles(index, { q: 'drainage' }, 5, offset);
      const reference = offset >= 50 ? fullFrom50.slice(offset - 50, offset - 45) : top100.slice(offset, offset + 5);
      assert.deepEqual(page, reference, `page at ${offset}`);
    }
    // More repetitions of the word score higher: the first page holds the 7-repetition tenders.
    assert.ok(top100.slice(0, 21).every((title) => Number(title.split(' ')[1]) % 7 === 6));
  });

  it('breaks equal scores by closing date, soonest first', async () => {
    const index = await TenderIndex.build(
      [
        row('1', { title: 'Fencing', closing_date: '2026-07-09' }),
        row('2', { title: 'Fencing', closing_date: '2026-07-03' }),
        row('3', { title: 'Fencing', closing_date: null }),
        row('4', { title: 'Fencing', closing_date: '2026-07-05' }),
      ],
      [],
    );
    const keys = index.search({ q: 'fencing' }, { limit: 10, offset: 0 }, NOW).hits.map((hit) => hit.tender.closingDate);
    assert.deepEqual(keys, ['2026-07-03', '2026-07-05', '2026-07-09', null]);
  });
});

describe('index build', () => {
  it('leaves out rows outside the vocabulary and counts them', async () => {
    const index = await TenderIndex.build([row('1'), row('2', { jurisdiction: 'AU-XX' }), row('3', { kind: 'award' }), row('4', { tier: 'city' })], []);
    assert.equal(index.size, 1);
    assert.equal(index.skipped, 3);
  });

  it('takes the closing date from the closing time, in the buyer\'s day, when only a time is published', async () => {
    const index = await TenderIndex.build([row('1', { jurisdiction: 'AU-WA', closing_date: null, closing_at: '2026-06-10T17:00:00.000Z' })], []);
    const hit = index.get('1'.padStart(32, '0'), NOW);
    assert.equal(hit?.tender.closingDate, '2026-06-11', '17:00Z is 01:00 the next day in Perth');
  });
});

describe('trade filter', () => {
  it('keeps only tenders of the trade asked for; tenders with no trade never match one', async () => {
    const index = await TenderIndex.build(
      [row('1', { title: 'Road resurfacing', trade: 'civil-works' }), row('2', { title: 'Office cleaning', trade: 'cleaning' }), row('3', { title: 'Panel', trade: null })],
      [],
    );
    const keys = (filters: TenderFilters) => index.search(filters, { limit: 10, offset: 0 }, NOW).hits.map((hit) => hit.tender.row.title);
    assert.deepEqual(keys({ trade: 'civil-works' }), ['Road resurfacing']);
    assert.deepEqual(keys({ trade: 'security' }), []);
    assert.equal(keys({}).length, 3);
  });
});

describe('words and trades', () => {
  it("finds a tender by its trade's name when its own words do not say it", async () => {
    const index = await TenderIndex.build(
      [
        row('1', { title: 'Linen and laundry services', trade: 'cleaning' }),
        row('2', { title: 'Office cleaning', trade: 'cleaning' }),
        row('3', { title: 'Road resurfacing', trade: 'civil-works' }),
      ],
      [],
    );
    assert.deepEqual(titles(index, { q: 'cleaning' }), ['Office cleaning', 'Linen and laundry services'], 'a word in the title outranks the trade name alone');
    assert.deepEqual(titles(index, { q: 'civil works' }), ['Road resurfacing']);
  });
});

describe('closing order for a word search', () => {
  it('orders matches by closing date, soonest first, and closed ones most recently closed last', async () => {
    const index = await TenderIndex.build(
      [
        row('1', { title: 'Fencing fencing fencing', closing_date: '2026-07-20' }),
        row('2', { title: 'Repairs', summary: 'fencing', closing_date: '2026-07-02' }),
        row('3', { title: 'Gates', summary: 'fencing nearby', closing_date: null }),
        row('4', { title: 'Fencing', closing_date: '2026-06-01' }),
        row('5', { title: 'Fencing', closing_date: '2026-05-01' }),
        row('6', { title: 'Painting', closing_date: '2026-06-20' }),
      ],
      [],
    );
    const closing = (filters: TenderFilters, limit = 10, offset = 0) =>
      index.search(filters, { limit, offset, sort: 'closing' }, NOW).hits.map((hit) => hit.tender.closingDate);
    assert.deepEqual(closing({ q: 'fencing' }), ['2026-07-02', '2026-07-20', null]);
    assert.deepEqual(closing({ q: 'fencing', include_closed: true }), ['2026-07-02', '2026-07-20', null, '2026-06-01', '2026-05-01']);
    assert.deepEqual(closing({ q: 'fencing', include_closed: true }, 2, 2), [null, '2026-06-01']);
    assert.equal(index.search({ q: 'fencing' }, { limit: 1, offset: 0, sort: 'closing' }, NOW).total, 3);
    assert.deepEqual(
      index.search({ q: 'fencing' }, { limit: 10, offset: 0 }, NOW).hits.map((hit) => hit.tender.closingDate)[0],
      '2026-07-20',
      'relevance stays the default: the title saying it three times ranks first',
    );
  });
});
