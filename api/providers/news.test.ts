import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeGdelt, type FakeGdelt } from '../../test/helpers/fake-gdelt.ts';
import { createProviderTransport } from './http.ts';
import { createGdeltNews, gdeltQuery, newsFromEnv } from './news.ts';

describe('GDELT news client', () => {
  let fake: FakeGdelt;
  before(async () => {
    fake = await startFakeGdelt({
      articles: {
        'John Smith': [{ url: 'https://news.example/smith', title: 'Ridgeline Civil boss John Smith charged', seendate: '20261002T041500Z', domain: 'news.example', sourcecountry: 'Australia' }],
        'Smith John': [{ url: 'https://news.example/smith', title: 'Ridgeline Civil boss John Smith charged', seendate: '20261002T041500Z', domain: 'news.example' }],
      },
      failing: ['Broken Person'],
      silent: ['Silent Person'],
    });
  });
  after(() => fake.close());

  const transport = (timeoutMs = 2_000) => createProviderTransport({ userAgent: 'test', timeoutMs, minIntervalMs: 0 });
  const client = (timeoutMs?: number) => createGdeltNews({ transport: transport(timeoutMs), baseUrl: fake.url, intervalMs: 0 });

  it('asks the article list in JSON for the quoted names beside adverse terms, and reads url, title, domain, date and country', async () => {
    const answer = await client().search({ names: ['John Smith'] });
    assert.deepEqual(answer, { ok: true, value: [{ url: 'https://news.example/smith', title: 'Ridgeline Civil boss John Smith charged', domain: 'news.example', seen: '2026-10-02', language: 'English', source_country: 'Australia' }] });
    const asked = fake.queries.at(-1)!;
    assert.equal(asked.get('mode'), 'ArtList');
    assert.equal(asked.get('format'), 'json');
    assert.equal(asked.get('maxrecords'), '75');
    assert.match(asked.get('query')!, /^"John Smith" \(fraud OR corruption OR bribery OR "money laundering" OR .*\) sourcelang:english$/);
  });

  it('answers an empty list for GDELT\'s empty object', async () => {
    assert.deepEqual(await client().search({ names: ['Nobody Known'] }), { ok: true, value: [] });
  });

  it('gives the one-line message of a query GDELT will not run as refused', async () => {
    const answer = await client().search({ names: ['Jo'] });
    assert.deepEqual(answer, { ok: false, reason: 'refused', detail: 'GDELT DOC 2.0 did not run the search: The specified phrase is too short.' });
  });

  it('turns a 5xx and a silent server into unreachable, after one attempt each', async () => {
    const before = fake.queries.length;
    const broken = await client().search({ names: ['Broken Person'] });
    const silent = await client(300).search({ names: ['Silent Person'] });
    assert.equal(broken.ok ? 'ok' : broken.reason, 'unreachable');
    assert.equal(silent.ok ? 'ok' : silent.reason, 'unreachable');
    assert.match(silent.ok ? '' : silent.detail, /did not answer within 0\.3 s/);
    assert.equal(fake.queries.length - before, 2);
  });

  it('keeps GDELT\'s one request every 5 s, and answers at once when the wait would be too long', async () => {
    let clock = 0;
    const waits: number[] = [];
    const paced = createGdeltNews({ transport: transport(), baseUrl: fake.url, clock: () => clock, sleep: async (ms) => void waits.push(ms) });
    for (let call = 0; call < 5; call += 1) await paced.search({ names: ['Nobody Known'] });
    assert.deepEqual(waits, [5_000, 10_000, 15_000, 20_000]);
    const queued = await paced.search({ names: ['Nobody Known'] });
    assert.equal(queued.ok ? 'ok' : queued.reason, 'unreachable');
    clock = 60_000;
    assert.equal((await paced.search({ names: ['Nobody Known'] })).ok, true);
  });

  it('quotes each name once, ORs aliases, and strips quotes a name carries', () => {
    assert.equal(gdeltQuery(['John "Jack" Smith', 'Smith John', 'Smith John']).split(' (fraud')[0], '("John Jack Smith" OR "Smith John")');
  });

  it('from the environment: answers not configured while SVC_NEWS_GDELT_URL is unset, like every other outside service, and asks the endpoint it names', async () => {
    const unconfigured = { ok: false, reason: 'not_configured', detail: 'News search (GDELT DOC 2.0) is not configured on this server (SVC_NEWS_GDELT_URL is unset), so it was not consulted.' };
    const asked = fake.queries.length;
    assert.deepEqual(await newsFromEnv({}, transport()).search({ names: ['John Smith'] }), unconfigured);
    assert.deepEqual(await newsFromEnv({ SVC_NEWS_GDELT_URL: '  ' }, transport()).search({ names: ['John Smith'] }), unconfigured);
    assert.equal(fake.queries.length, asked);
    const configured = await newsFromEnv({ SVC_NEWS_GDELT_URL: fake.url }, transport()).search({ names: ['John Smith'] });
    assert.deepEqual(configured.ok && configured.value.map((article) => article.url), ['https://news.example/smith']);
    assert.equal(fake.queries.length, asked + 1);
  });

  it('from the environment: refuses a value that is not an http(s) URL, naming GDELT\'s public address', () => {
    for (const value of ['gdelt please', 'off', 'ftp://gdelt.example/doc']) {
      assert.throws(() => newsFromEnv({ SVC_NEWS_GDELT_URL: value }, transport()), /^Error: SVC_NEWS_GDELT_URL must be an http\(s\) URL, such as GDELT's https:\/\/api\.gdeltproject\.org\/api\/v2\/doc\/doc; got /);
    }
  });
});
