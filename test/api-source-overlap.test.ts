import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { overlapResult, type OverlapResult } from '../api/checkers/overlap/result.ts';
import { servicesFromEnv } from '../api/providers/index.ts';
import { checkerApp, postFiles, postJson, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeWeb, type FakePage, type FakeWeb } from './helpers/fake-web.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

const ROADS: FakePage = {
  host: 'roads-review.example', path: '/funding', title: 'Funding local roads',
  text:
    'Councils across regional New South Wales maintain more than ninety thousand kilometres of local roads, most of them unsealed.\n\n' +
    'The review found that the cost of resealing a kilometre of rural road has risen by almost forty per cent since the last grant formula was set, while the grants themselves have been indexed to general inflation only.\n\n' +
    'Submissions from smaller shires argued that flood damage now consumes a growing share of maintenance budgets.',
};
const WATER: FakePage = {
  host: 'water.example', path: '/2026/plan', title: 'Regional water plan',
  text:
    'Water security in inland towns depends on ageing weirs and treatment plants built in the nineteen sixties.\n\n' +
    'Operators reported that chlorine dosing equipment at several small plants is past the end of its design life and that spare parts are no longer manufactured anywhere in Australia.',
};
// The document's own publication, which its own host must never count as a source.
const OWN: FakePage = { host: 'shire.example', path: '/report', title: 'Shire report', text: '' };

const DOCUMENT =
  'Our shire manages a long and fragile network of roads and water assets, and this report sets out where the money goes and why. ' +
  'The review found that the cost of resealing a kilometre of rural road has risen by almost forty per cent since the last grant formula was set. ' +
  'That matches what our own crews see each season on the western routes, where the gravel sheeting has to be renewed far more often than planned. ' +
  'In the water business the picture is similar. Operators reported that chlorine dosing equipment at several small plants is past the end of its design life and that spare parts are no longer manufactured anywhere in Australia. Our two plants are among them. ' +
  'We have asked the state for a five year program rather than annual grants, so that works can be planned and contractors can hold crews in the district between jobs.';

describe('POST /v1/check-source-overlap', () => {
  let web: FakeWeb;
  before(async () => {
    web = await startFakeWeb([ROADS, WATER, { ...OWN, text: DOCUMENT }]);
  });
  after(() => web.close());
  const withWeb = async (env: Record<string, string> = { SVC_BRAVE_SEARCH_KEY: web.apiKey, SVC_BRAVE_SEARCH_URL: web.searchUrl, SVC_BRAVE_SEARCH_INTERVAL_MS: '0' }) =>
    await checkerApp({ real: ['read_text'], services: servicesFromEnv(env, web.fetcher, { minIntervalMs: 0 }), fetchDocument: web.fetcher });

  it('with no search provider configured: a search outage, said plainly, and not counted', async () => {
    const checker = await withWeb({});
    try {
      const reply = await postJson(checker.app, '/v1/check-source-overlap', { text: DOCUMENT });
      assert.equal(reply.status, 200);
      const body = overlapResult.parse(await reply.json());
      assert.equal(body.outcome, 'search_unavailable');
      assert.equal(body.overlap_band, 'not_assessed');
      assert.equal(body.overlap_ratio, null);
      assert.equal(body.headline, 'The web could not be searched, so overlap was not assessed: Brave Search API is not configured on this server (SVC_BRAVE_SEARCH_KEY is unset), so it was not consulted.');
      assert.deepEqual([body.paraphrase_checked, body.possible_paraphrases], [false, []]);
      assert.equal(await unitsUsed(checker), 0);
    } finally {
      await checker.close();
    }
  });

  it('finds the copied passages on their pages (and, for a text, its own publication), with spans into the text, and counts the call', async () => {
    const checker = await withWeb();
    try {
      const reply = await postJson(checker.app, '/v1/check-source-overlap', { text: DOCUMENT });
      const body = overlapResult.parse(await reply.json()) as OverlapResult;
      assert.equal(body.outcome, 'assessed');
      assert.deepEqual(body.matches.map((match) => [match.source_url, match.tokens_matched, match.matched_quote.slice(0, 60)]), [
        [web.urlOf(OWN), 150, DOCUMENT.slice(0, 60)],
        [web.urlOf(ROADS), 27, 'The review found that the cost of resealing a kilometre of r'],
        [web.urlOf(WATER), 29, 'Operators reported that chlorine dosing equipment at several'],
      ]);
      for (const match of body.matches) {
        assert.equal(DOCUMENT.slice(match.passage_span.start_char, match.passage_span.end_char), match.matched_quote);
        assert.equal(match.tier, 'exact');
      }
      assert.deepEqual([body.overlap_ratio, body.overlap_band], [1, 'very_high']);
      assert.deepEqual(body.top_sources.map((source) => [source.host, source.title, source.tokens_matched]), [
        [new URL(web.urlOf(OWN)).host, 'Shire report', 150], [new URL(web.urlOf(WATER)).host, 'Regional water plan', 29], [new URL(web.urlOf(ROADS)).host, 'Funding local roads', 27],
      ]);
      assert.equal(body.coverage.pages_compared >= 2, true);
      assert.equal(await unitsUsed(checker), 1);
    } finally {
      await checker.close();
    }
  });

  it('a {url} document is never matched against its own host, which the reply names', async () => {
    const checker = await withWeb();
    const ownReads = () => web.pagesRead.filter((read) => read === `${OWN.host}${OWN.path}`).length;
    const readBefore = ownReads();
    try {
      const reply = await postJson(checker.app, '/v1/check-source-overlap', { url: web.urlOf(OWN) });
      const body = overlapResult.parse(await reply.json());
      assert.equal(body.outcome, 'assessed');
      assert.equal(body.coverage.excluded_host, OWN.host);
      // The page read from the document's own address: its menu (Home, News, Contact) is three words more than the text.
      assert.equal(body.coverage.words, 153);
      assert.ok(web.queries.length > 0);
      assert.deepEqual(body.matches.map((match) => match.source_url), [web.urlOf(ROADS), web.urlOf(WATER)]);
      // Read once, as the document; the searches found it too, but it was never fetched as a candidate source.
      assert.equal(ownReads() - readBefore, 1);
      assert.deepEqual([body.overlap_ratio, body.overlap_band], [0.366, 'high']);
      assert.equal(body.headline, `37% of the document's words (56 of 153, in 2 passages) appear word for word on 2 of the 2 web pages compared; most on ${new URL(web.urlOf(WATER)).host}.`);
    } finally {
      await checker.close();
    }
  });

  it('a provider failing on every query is an outage, per query, and not counted', async () => {
    const checker = await withWeb();
    web.setSearchMode('server_error');
    try {
      const body = overlapResult.parse(await (await postJson(checker.app, '/v1/check-source-overlap', { text: DOCUMENT })).json());
      assert.equal(body.outcome, 'search_unavailable');
      assert.ok(body.coverage.search_failures.length === body.coverage.queries_sent && body.coverage.queries_sent > 0);
      assert.ok(body.coverage.search_failures.every((failure) => failure.status === 'unreachable now'));
      assert.equal(await unitsUsed(checker), 0);
    } finally {
      web.setSearchMode('ok');
      await checker.close();
    }
  });

  it('abstains on a short text and on a table, without searching or counting', async () => {
    const checker = await withWeb();
    try {
      const asked = web.queries.length;
      const short = overlapResult.parse(await (await postJson(checker.app, '/v1/check-source-overlap', { text: 'Roads and water, briefly.' })).json());
      assert.equal(short.outcome, 'abstained_too_short');
      const table = Array.from({ length: 40 }, (_, i) => `Asset ${i}\tWeir ${i}\t${1960 + i}\t$${i * 1200}`).join('\n');
      const reply = await postFiles(checker.app, '/v1/check-source-overlap', 'file', [{ bytes: new TextEncoder().encode(table), name: 'assets.txt' }]);
      const tabular = overlapResult.parse(await reply.json());
      assert.equal(tabular.outcome, 'abstained_not_prose');
      assert.equal(web.queries.length, asked);
      assert.equal(await unitsUsed(checker), 0);
    } finally {
      await checker.close();
    }
  });

  it('streams received, working with its stages, then the result', async () => {
    const checker = await withWeb();
    try {
      const reply = await postJson(checker.app, '/v1/check-source-overlap?stream=1', { text: DOCUMENT });
      const events = (await reply.text()).split('\n\n').filter((block) => block.trim() !== '').map((block) => block.split('\n').find((line) => line.startsWith('event:'))!.slice(6).trim());
      assert.equal(events[0], 'received');
      assert.ok(events.includes('working'));
      assert.equal(events.at(-1), 'result');
      assert.equal(await unitsUsed(checker), 1);
    } finally {
      await checker.close();
    }
  });

  it('refuses a request without a document, and a type it does not read, with 400 {detail}', async () => {
    const checker = await withWeb();
    try {
      const empty = new FormData();
      empty.set('note', 'no file here');
      const none = await checker.app.request('/v1/check-source-overlap', { method: 'POST', body: empty });
      assert.equal(none.status, 400);
      assert.match(((await none.json()) as { detail: string }).detail, /^No document was sent; upload it in the multipart field `file`/);
      const png = await postFiles(checker.app, '/v1/check-source-overlap', 'file', [{ bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]), name: 'scan.png' }]);
      assert.equal(png.status, 400);
      assert.match(((await png.json()) as { detail: string }).detail, /received a PNG image; source-overlap checks accept PDF, plain text, HTML or Word \(\.docx\)/);
      assert.equal(await unitsUsed(checker), 0);
    } finally {
      await checker.close();
    }
  });

  it('answers the sandbox fixture, labelled, valid and never metered', async () => {
    const checker = await withWeb();
    try {
      const reply = await postJson(checker.app, '/v1/check-source-overlap', { text: 'anything' }, { 'svc-sandbox': 'true' });
      const body = (await reply.json()) as Record<string, unknown>;
      assert.equal(body['sandbox'], true);
      const { sandbox: _label, ...result } = body;
      const parsed = overlapResult.parse(result);
      assert.equal(parsed.outcome, 'assessed');
      assert.equal(await unitsUsed(checker), 0);
    } finally {
      await checker.close();
    }
  });
});
