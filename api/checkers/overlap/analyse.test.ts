import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderResult } from '../../providers/http.ts';
import type { PageAnswer, PageFetch } from '../../providers/page-fetch.ts';
import { BRAVE_PROVIDER, unconfiguredWebSearch, type WebSearch, type WebSearchHit } from '../../providers/web-search.ts';
import { judgeOverlap, MAX_PAGES, PARAPHRASE_NOTE } from './analyse.ts';
import { overlapResult } from './result.ts';

/**
 * The judging step with in-memory clients: which pages are read, which are not and why, and what each
 * outcome says. The search answers every query with the same hits, so what happens to each page is
 * decided by the page client alone.
 */

const COPIED = 'the regional water authority will replace the chlorine dosing equipment at eleven small treatment plants before the summer of 2027';
const TEXT =
  'This report describes the state of the shire\'s assets and the works planned for the next three years, with their costs. ' +
  `Our engineers note that ${COPIED}, which suits our own plans. ` +
  'The roads program is unchanged: the western routes are resheeted each summer, and the bridge on the river road is inspected twice a year by a consulting engineer. ' +
  'Council will consider the program at its meeting in March, and residents may comment on it until the end of February.';

function searchAnswering(hits: WebSearchHit[], failEvery = 0): WebSearch & { queries: string[] } {
  const queries: string[] = [];
  return {
    provider: BRAVE_PROVIDER,
    queries,
    async search(query) {
      queries.push(query);
      if (failEvery > 0 && queries.length % failEvery === 0) return { ok: false, reason: 'unreachable', detail: 'api.search.brave.com answered HTTP 503; try again later.' };
      return { ok: true, value: hits };
    },
  };
}

function pagesAnswering(answers: Record<string, ProviderResult<PageAnswer>>): PageFetch & { read_urls: string[] } {
  const read_urls: string[] = [];
  return {
    read_urls,
    async read(url) {
      read_urls.push(url);
      return answers[url] ?? { ok: false, reason: 'unreachable', detail: `${url} did not answer.` };
    },
  };
}

const page = (url: string, text: string | null, overrides: Partial<PageAnswer> = {}): ProviderResult<PageAnswer> => ({
  ok: true, value: { url, finalUrl: url, status: 200, method: 'GET', contentType: 'text/html', title: 'A page', text, ...overrides },
});
const hit = (url: string): WebSearchHit => ({ url, title: `Title of ${url}`, description: '' });
const progress = { progress: () => undefined };

test('pages on the excluded site (with or without www) are never read; others are, and the reasons for those not compared are given', async () => {
  const hits = ['https://www.shire.example/report', 'https://shire.example/other', 'https://water.example/plan', 'https://gone.example/x', 'https://robots.example/y', 'https://pdf.example/z', 'https://moved.example/a', 'https://down.example/b'].map(hit);
  const pages = pagesAnswering({
    'https://water.example/plan': page('https://water.example/plan', `News. ${COPIED}. More news.`, { title: 'Water plan' }),
    'https://gone.example/x': page('https://gone.example/x', null, { status: 404, method: 'HEAD' }),
    'https://robots.example/y': { ok: false, reason: 'refused', detail: "Not read: the site's robots.txt asks bots not to fetch https://robots.example/y." },
    'https://pdf.example/z': page('https://pdf.example/z', null, { contentType: 'application/pdf' }),
    'https://moved.example/a': page('https://moved.example/a', TEXT, { finalUrl: 'https://www.shire.example/copy' }),
  });
  const result = await judgeOverlap(TEXT, { webSearch: searchAnswering(hits), pages }, { excludedHost: 'shire.example' }, progress);
  overlapResult.parse(result);
  assert.equal(result.outcome, 'assessed');
  assert.deepEqual(pages.read_urls.filter((url) => url.includes('shire.example')), []);
  assert.deepEqual(result.matches.map((match) => [match.source_url, match.tokens_matched]), [['https://water.example/plan', 20]]);
  assert.deepEqual(result.top_sources.map((source) => source.title), ['Water plan']);
  assert.deepEqual(result.coverage.pages_not_read.map((entry) => [entry.url, entry.status]), [
    ['https://gone.example/x', 'not found'], ['https://robots.example/y', 'refused'], ['https://pdf.example/z', 'not text'],
    ['https://moved.example/a', 'excluded'], ['https://down.example/b', 'unreachable now'],
  ]);
  assert.equal(result.coverage.pages_compared, 1);
  assert.equal(result.headline, "20% of the document's words (20 of 100, in 1 passage) appear word for word on 1 of the 1 web page compared; most on water.example.");
});

test('at most MAX_PAGES candidates are read, those more queries found first', async () => {
  const many = Array.from({ length: MAX_PAGES + 5 }, (_, i) => hit(`https://site${i}.example/`));
  const pages = pagesAnswering({});
  await judgeOverlap(TEXT, { webSearch: searchAnswering(many), pages }, { excludedHost: null }, progress);
  assert.equal(pages.read_urls.length, MAX_PAGES);
});

test('some searches failing: assessed, with the failures listed and the limitations saying part was not searched', async () => {
  const webSearch = searchAnswering([hit('https://water.example/plan')], 2);
  const pages = pagesAnswering({ 'https://water.example/plan': page('https://water.example/plan', COPIED) });
  const result = await judgeOverlap(TEXT, { webSearch, pages }, { excludedHost: null }, progress);
  assert.equal(result.outcome, 'assessed');
  assert.equal(result.coverage.search_failures.length, 1);
  assert.equal(result.coverage.queries_answered, result.coverage.queries_sent - 1);
  assert.match(result.limitations, /1 of 3 searches got no answer, so part of the document was not searched for\.$/);
});

test('searches answered with nothing: assessed, no overlap, and the headline says nothing was found to compare', async () => {
  const result = await judgeOverlap(TEXT, { webSearch: searchAnswering([]), pages: pagesAnswering({}) }, { excludedHost: null }, progress);
  assert.deepEqual([result.outcome, result.overlap_band, result.overlap_ratio], ['assessed', 'none', 0]);
  assert.equal(result.headline, 'The search found no page holding any of the 3 passages searched for; no overlap was found.');
});

test('no page readable is an outage of its own, not an assessment; no provider is a search outage saying it is not configured', async () => {
  const unreadable = await judgeOverlap(TEXT, { webSearch: searchAnswering([hit('https://down.example/')]), pages: pagesAnswering({}) }, { excludedHost: null }, progress);
  assert.deepEqual([unreadable.outcome, unreadable.overlap_band, unreadable.overlap_ratio], ['sources_unreachable', 'not_assessed', null]);
  const unconfigured = await judgeOverlap(TEXT, { webSearch: unconfiguredWebSearch, pages: pagesAnswering({}) }, { excludedHost: null }, progress);
  assert.equal(unconfigured.outcome, 'search_unavailable');
  assert.ok(unconfigured.coverage.search_failures.every((failure) => failure.status === 'not configured'));
  assert.match(unconfigured.limitations, /^Not assessed: this reply says nothing about overlap either way, and nothing was counted against your allowance\./);
  assert.deepEqual([unconfigured.note, unconfigured.paraphrase_checked, unconfigured.possible_paraphrases], [PARAPHRASE_NOTE, false, []]);
});
