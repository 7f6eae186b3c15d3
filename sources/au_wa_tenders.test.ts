import { test } from 'node:test';
import assert from 'node:assert/strict';
import source, { WA_PRACTICE_TITLES } from './au_wa_tenders.ts';
import { isPracticeNotice } from './_platforms/tendersearch.ts';
import { crawlOnFixtures } from '../test/helpers/crawl-fixtures.ts';

test('robots.txt disallows both lists: the source is robots_refused and nothing but robots.txt is requested', async () => {
  const crawl = await crawlOnFixtures(source);
  assert.equal(crawl.refused, 'robots_refused');
  assert.equal(crawl.failed, false);
  assert.deepEqual(crawl.records, []);
  assert.equal(
    crawl.diagnosis,
    'robots.txt disallows /watenders/tender/search/tender-search.do, /watenders/contract/list.action for crawlers; not fetched',
  );
  assert.deepEqual(crawl.requests.map((request) => `${request.method} ${request.path} ${request.status}`), ['GET /robots.txt 200']);
});

test('the start requests are the real WA list paths, on the platform family', () => {
  const start = source.start({ url: (path) => `https://www.tenders.wa.gov.au${path}`, publicUrl: (url) => url, now: new Date('2026-09-25T01:00:00Z'), lastSuccessAt: null });
  assert.deepEqual(start.map((request) => [new URL(request.url).pathname, request.label]), [
    ['/watenders/tender/search/tender-search.do', 'TENDER_LIST'],
    ['/watenders/contract/list.action', 'AWARD_LIST'],
  ]);
  assert.deepEqual(source.kinds, ['tender', 'award']);
});

test('its demonstration notice DEMOTENDER is recognised as no tender; real titles are not', () => {
  assert.equal(isPracticeNotice('DEMOTENDER', WA_PRACTICE_TITLES), true);
  assert.equal(isPracticeNotice('Demo Tender - do not respond', WA_PRACTICE_TITLES), true);
  for (const title of ['Demolition of the Old Pump Station', 'Tender for demountable classrooms', 'General Practice Services Panel']) {
    assert.equal(isPracticeNotice(title, WA_PRACTICE_TITLES), false, title);
  }
});
