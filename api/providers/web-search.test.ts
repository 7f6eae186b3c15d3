import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeWeb, type FakeWeb } from '../../test/helpers/fake-web.ts';
import { createProviderTransport } from './http.ts';
import { BRAVE_PROVIDER, createBraveSearch, webSearchFromEnv } from './web-search.ts';

const PAGES = [
  { host: 'council.example', path: '/bridge', title: 'Bridge & road works', text: 'The council will replace the timber bridge on Mill Road with a concrete span next winter.' },
  { host: 'news.example', path: '/water', title: 'Water plan', text: 'A new water treatment plant will serve the northern suburbs from 2028.' },
];

describe('Brave web search client against a fake speaking its wire format', () => {
  let web: FakeWeb;
  const transport = createProviderTransport({ userAgent: 'TenderIntelBot/test', timeoutMs: 500, minIntervalMs: 0 });
  before(async () => {
    web = await startFakeWeb(PAGES);
  });
  after(() => web.close());

  it('sends the key and the query and reads web.results as url, title and plain-text description', async () => {
    web.setSearchMode('ok');
    const search = createBraveSearch({ apiKey: web.apiKey, url: web.searchUrl, transport });
    const found = await search.search('"replace the timber bridge on Mill Road"', { count: 5 });
    assert.ok(found.ok);
    assert.equal(found.value.length, 1);
    assert.equal(found.value[0]!.url, web.urlOf(PAGES[0]!));
    assert.equal(found.value[0]!.title, 'Bridge & road works');
    assert.match(found.value[0]!.description, /^The council will replace .* replace the timber$/);
    assert.doesNotMatch(found.value[0]!.description, /<strong>/);
    assert.equal(web.queries.at(-1), '"replace the timber bridge on Mill Road"');
    assert.equal(search.provider, BRAVE_PROVIDER);
  });

  it('reads an answer without a web block (nothing matched) as no results', async () => {
    const search = createBraveSearch({ apiKey: web.apiKey, url: web.searchUrl, transport });
    assert.deepEqual(await search.search('"words on no page at all anywhere"'), { ok: true, value: [] });
  });

  it('a rejected key is refused; a 5xx, a rate limit and the time limit are unreachable', async () => {
    const wrongKey = createBraveSearch({ apiKey: 'not-the-key', url: web.searchUrl, transport });
    const refused = await wrongKey.search('bridge');
    assert.deepEqual(refused.ok ? null : [refused.reason, refused.detail], ['refused', `127.0.0.1:${new URL(web.origin).port} refused the request with HTTP 401.`]);
    const search = createBraveSearch({ apiKey: web.apiKey, url: web.searchUrl, transport });
    for (const [mode, detail] of [['server_error', /answered HTTP 500/], ['rate_limited', /answered HTTP 429/], ['hang', /did not answer within/]] as const) {
      web.setSearchMode(mode);
      const failed = await search.search('bridge');
      assert.equal(failed.ok, false, mode);
      assert.equal(!failed.ok && failed.reason, 'unreachable', mode);
      assert.match(!failed.ok ? failed.detail : '', detail);
    }
    web.setSearchMode('ok');
  });

  it('from the environment: no key is a client that says it is not configured and calls nothing', async () => {
    const before = web.queries.length;
    const unset = webSearchFromEnv({ SVC_BRAVE_SEARCH_URL: web.searchUrl }, transport);
    assert.deepEqual(await unset.search('bridge'), {
      ok: false, reason: 'not_configured', detail: 'Brave Search API is not configured on this server (SVC_BRAVE_SEARCH_KEY is unset), so it was not consulted.',
    });
    assert.equal(web.queries.length, before);
    const configured = webSearchFromEnv({ SVC_BRAVE_SEARCH_KEY: web.apiKey, SVC_BRAVE_SEARCH_URL: web.searchUrl }, transport);
    const found = await configured.search('water treatment plant');
    assert.deepEqual(found.ok && found.value.map((hit) => hit.title), ['Water plan']);
  });

  it('from the environment: searches are paced at SVC_BRAVE_SEARCH_INTERVAL_MS apart, and a bad value is refused', async () => {
    const paced = webSearchFromEnv({ SVC_BRAVE_SEARCH_KEY: web.apiKey, SVC_BRAVE_SEARCH_URL: web.searchUrl, SVC_BRAVE_SEARCH_INTERVAL_MS: '300' }, transport);
    const started = performance.now();
    await Promise.all([paced.search('bridge'), paced.search('water'), paced.search('road')]);
    assert.ok(performance.now() - started >= 590, `three searches took ${Math.round(performance.now() - started)} ms`);
    assert.throws(() => webSearchFromEnv({ SVC_BRAVE_SEARCH_KEY: 'k', SVC_BRAVE_SEARCH_INTERVAL_MS: 'soon' }, transport), /SVC_BRAVE_SEARCH_INTERVAL_MS must be a number of milliseconds, got soon/);
  });
});
