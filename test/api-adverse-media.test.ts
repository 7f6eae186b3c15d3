import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { screenSubject } from '../api/checkers/adverse-media/analyse.ts';
import { adverseMediaResult, type AdverseMediaResult } from '../api/checkers/adverse-media/result.ts';
import { createProviderTransport } from '../api/providers/http.ts';
import { servicesFromEnv, type Services } from '../api/providers/index.ts';
import { createGdeltNews, newsFromEnv, type NewsSearch } from '../api/providers/news.ts';
import type { LoadedRelease } from '../api/release-store.ts';
import { releaseSanctions } from '../api/checkers/adverse-media/checker.ts';
import { openStore } from '../data/store.ts';
import { createSafeFetcher } from '../lib/safe-fetch.ts';
import { base64, checkerApp, postFiles, postJson, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeGdelt, type FakeGdelt } from './helpers/fake-gdelt.ts';
import { people, standInPdf } from './helpers/identity-documents.ts';
import { tempDir } from './helpers/temp-dir.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
const transport = () => createProviderTransport({ userAgent: 'test', minIntervalMs: 0, timeoutMs: 2_000 });
// Article pages are not served: every article is judged on its title, as when a news site refuses robots.
const noPages = { read: async () => ({ ok: false as const, reason: 'unreachable' as const, detail: 'no pages in this test' }) };
/** The providers of a server with none configured, with this test's pages and news clients. */
const servicesWith = (news: NewsSearch): Services => ({ ...servicesFromEnv({}, createSafeFetcher()), pages: noPages, news });

describe('POST /v1/adverse-media', () => {
  let gdelt: FakeGdelt;
  let checker: CheckerApp;
  let unconfigured: CheckerApp;
  before(async () => {
    gdelt = await startFakeGdelt({
      articles: {
        'John Smith': [
          { url: 'https://news.example/charged', title: 'Ridgeline Civil boss John Smith charged over invoice fraud', seendate: '20261002T041500Z', domain: 'news.example' },
          { url: 'https://news.example/footballer', title: 'Footballer John Smith, 23, charged with assault', seendate: '20260703T041500Z', domain: 'sport.example' },
        ],
        'Priya Mae Fictone': [{ url: 'https://news.example/fictone', title: 'Priya Mae Fictone accused of bribery', seendate: '20261101T000000Z', domain: 'news.example' }],
      },
    });
    checker = await checkerApp({ services: servicesWith(createGdeltNews({ transport: transport(), baseUrl: gdelt.url, intervalMs: 0 })), real: ['read_text'] });
    // The providers of a fresh clone: no SVC_* variable set.
    unconfigured = await checkerApp({ services: servicesFromEnv({}, createSafeFetcher()) });
  });
  after(async () => {
    await checker.close();
    await unconfigured.close();
    await gdelt.close();
  });

  it('screens a name: news hits with category and evidence, the namesake excluded, sanctions said to be unscreened without a release; one unit', async () => {
    const before = await unitsUsed(checker);
    const reply = await postJson(checker.app, '/v1/adverse-media', { name: 'John Smith', dob: '1971-05-14', country: 'Australia', employer: 'Ridgeline Civil Pty Ltd', role: 'Managing Director' });
    assert.equal(reply.status, 200);
    const body = adverseMediaResult.parse(await reply.json());
    assert.deepEqual(body.subject, { name: 'John Smith', source: 'request', country: 'AU' });
    assert.deepEqual(body.adverse_media.hits.map((hit) => [hit.url, hit.match, hit.category, hit.severity, hit.evidence]), [
      ['https://news.example/charged', 'name_and_details', 'fraud', 'high', 'Ridgeline Civil boss John Smith charged over invoice fraud'],
    ]);
    assert.deepEqual(body.adverse_media.excluded.map((excluded) => excluded.url), ['https://news.example/footballer']);
    assert.equal(body.risk_flag, 'high');
    assert.match(body.limitations, /Lists of politically exposed persons \(PEPs\) are not screened\. Sanctions lists were not screened: No release in checker tests\./);
    assert.match(body.limitations, /News: GDELT DOC 2\.0 answered with 2 articles/);
    assert.match(gdelt.queries.at(-1)!.get('query')!, /^"John Smith" \(/);
    assert.equal(await unitsUsed(checker) - before, 1);
  });

  it('takes a name written surname first, as lists and forms write it, and searches it given name first', async () => {
    const body = (await (await postJson(checker.app, '/v1/adverse-media', { name: 'SMITH, John', employer: 'Ridgeline Civil' })).json()) as AdverseMediaResult;
    assert.equal(body.subject.name, 'John SMITH');
    assert.match(gdelt.queries.at(-1)!.get('query')!, /^"John SMITH" \(/);
    // No age or role was given, so the footballer can be neither matched nor set aside.
    assert.deepEqual(body.adverse_media.hits.map((hit) => [hit.url, hit.match]), [['https://news.example/charged', 'name_and_details'], ['https://news.example/footballer', 'name_only']]);
  });

  it('with no news provider configured (SVC_NEWS_GDELT_URL unset) and no release, answers incomplete, says news was not searched, and counts nothing', async () => {
    const before = await unitsUsed(unconfigured);
    const reply = await postJson(unconfigured.app, '/v1/adverse-media', { name: 'John Smith' });
    assert.equal(reply.status, 200);
    const body = adverseMediaResult.parse(await reply.json());
    assert.equal(body.risk_flag, 'incomplete');
    assert.deepEqual(body.adverse_media.hits, []);
    assert.match(body.limitations, /News was not searched \(not configured\): News search \(GDELT DOC 2\.0\) is not configured on this server \(SVC_NEWS_GDELT_URL is unset\), so it was not consulted\./);
    assert.equal(await unitsUsed(unconfigured), before);
  });

  it('reads the subject from a passport sent as bytes_b64 (machine-readable zone) and searches that name', async () => {
    const passport = await standInPdf('australian_passport', 0, people[1]!);
    const reply = await postJson(checker.app, '/v1/adverse-media', { bytes_b64: base64(passport.bytes), filename: 'passport.pdf', role: 'procurement manager' });
    assert.equal(reply.status, 200);
    const body = adverseMediaResult.parse(await reply.json());
    assert.deepEqual(body.subject, { name: 'Priya Mae Fictone', source: 'australian_passport:machine_readable_zone', country: 'AU' });
    assert.deepEqual(body.adverse_media.hits.map((hit) => [hit.category, hit.match]), [['corruption_bribery', 'name_only']]);
  });

  it('reads a driver licence uploaded as multipart `file`', async () => {
    const licence = await standInPdf('drivers_licence', 1, people[1]!);
    const body = (await (await postFiles(checker.app, '/v1/adverse-media', 'file', [{ bytes: licence.bytes, name: 'licence.pdf' }], { employer: 'Harbour Health' })).json()) as AdverseMediaResult;
    assert.deepEqual(body.subject, { name: 'Priya Mae Fictone', source: 'drivers_licence:printed_fields', country: 'AU' });
  });

  it('takes the details as multipart fields, an alias given once or repeated, and asks for a file when none is attached', async () => {
    const licence = await standInPdf('drivers_licence', 0, people[1]!);
    const once = await postFiles(checker.app, '/v1/adverse-media', 'file', [{ bytes: licence.bytes, name: 'licence.pdf' }], { aliases: 'Priya Fictone' });
    assert.equal(once.status, 200);
    assert.match(gdelt.queries.at(-1)!.get('query')!, /^\("Priya Mae Fictone" OR "Priya Fictone"\) /);
    const form = new FormData();
    form.append('file', new File([licence.bytes as Uint8Array<ArrayBuffer>], 'licence.pdf'));
    form.append('aliases', 'Priya Fictone');
    form.append('aliases', 'P M Fictone');
    assert.equal((await checker.app.request('/v1/adverse-media', { method: 'POST', body: form })).status, 200);
    assert.match(gdelt.queries.at(-1)!.get('query')!, /^\("Priya Mae Fictone" OR "Priya Fictone" OR "P M Fictone"\) /);
    const noFile = await postFiles(checker.app, '/v1/adverse-media', 'file', [], { aliases: 'Priya Fictone', role: 'director' });
    assert.equal(noFile.status, 400);
    assert.match(((await noFile.json()) as { detail: string }).detail, /^Give the subject's `name`, or an identity document/);
  });

  it('answers 422 for a document that is not an identity document, not counted', async () => {
    const before = await unitsUsed(checker);
    const bill = await standInPdf('utility_bill', 0, people[1]!);
    const reply = await postJson(checker.app, '/v1/adverse-media', { bytes_b64: base64(bill.bytes) });
    assert.equal(reply.status, 422);
    assert.match(((await reply.json()) as { detail: string }).detail, /reads as a utility bill .*not an identity document.*Nothing was counted against your allowance\.$/);
    assert.equal(await unitsUsed(checker), before);
  });

  it('refuses a name with a document, neither, and malformed details, each naming what to change', async () => {
    const both = await postJson(checker.app, '/v1/adverse-media', { name: 'John Smith', bytes_b64: base64(new Uint8Array([1])) });
    assert.equal(both.status, 400);
    assert.match(((await both.json()) as { detail: string }).detail, /gives both `name` and a document/);
    const neither = await postJson(checker.app, '/v1/adverse-media', { country: 'AU' });
    assert.equal(neither.status, 400);
    assert.match(((await neither.json()) as { detail: string }).detail, /^Give the subject's `name`, or an identity document/);
    const badCountry = await postJson(checker.app, '/v1/adverse-media', { name: 'John Smith', country: 'Atlantis' });
    assert.equal(badCountry.status, 422);
    assert.match(((await badCountry.json()) as { detail: string }).detail, /country.*ISO 3166 country code/);
    const badDob = await postJson(checker.app, '/v1/adverse-media', { name: 'John Smith', dob: '14/05/1971' });
    assert.equal(badDob.status, 422);
    assert.match(((await badDob.json()) as { detail: string }).detail, /dob.*YYYY, YYYY-MM or YYYY-MM-DD/);
    const marksOnly = await postJson(checker.app, '/v1/adverse-media', { name: '\u0301\u0301 12' });
    assert.equal(marksOnly.status, 422);
    assert.match(((await marksOnly.json()) as { detail: string }).detail, /name.*at least one letter/);
  });

  it('streams received, working, then the result with ?stream=1', async () => {
    const reply = await postJson(checker.app, '/v1/adverse-media?stream=1', { name: 'John Smith' });
    const events = (await reply.text()).split('\n\n').filter((block) => block.trim() !== '').map((block) => /event: (\w+)/.exec(block)![1]);
    assert.equal(events[0], 'received');
    assert.equal(events.at(-1), 'result');
    assert.ok(events.includes('working'));
  });

  it('answers the sandbox fixture, labelled and never metered', async () => {
    const before = await unitsUsed(checker);
    const body = (await (await postJson(checker.app, '/v1/adverse-media', {}, { 'svc-sandbox': 'true' })).json()) as AdverseMediaResult & { sandbox?: boolean };
    assert.equal(body.sandbox, true);
    const { sandbox: _label, ...fixture } = body;
    adverseMediaResult.parse(fixture);
    assert.match(body.limitations, /politically exposed persons \(PEPs\) are not screened/);
    assert.equal(await unitsUsed(checker), before);
  });
});

describe('the served release\'s sanctions lists for adverse media', () => {
  it('are read from the release store once it is ready, and say why not before', async () => {
    const store = await openStore(join(await tempDir('adverse-sanctions-'), 'store.duckdb'));
    try {
      await store.exec(`CREATE TABLE sanctions_entries (source VARCHAR, list_name VARCHAR, entry_id VARCHAR, entity_type VARCHAR, name VARCHAR,
        aliases VARCHAR[], weak_aliases VARCHAR[], dates_of_birth VARCHAR[], nationalities VARCHAR[], countries VARCHAR[], programmes VARCHAR[], as_of DATE);
        INSERT INTO sanctions_entries VALUES ('au_dfat_sanctions', 'DFAT Consolidated List', '101', 'person', 'SMITH, John', [], [], ['1971-05-14'], ['Australia'], [], ['Autonomous'], DATE '2026-11-20')`);
      let ready = false;
      const release = { state: () => (ready ? { ready: true as const, release: { store } as LoadedRelease } : { ready: false as const, detail: 'The first release is still loading.' }) };
      const lookup = releaseSanctions(release);
      assert.deepEqual(await lookup(), { ok: false, detail: 'The first release is still loading.' });
      ready = true;
      const found = await lookup();
      assert.ok(found.ok);
      assert.deepEqual(found.index.lists.map((list) => [list.list_name, list.entries]), [['DFAT Consolidated List', 1]]);
      // News unset, as on a fresh clone: the sanctions lists answered, so the call counts; the reply says news was not searched.
      const { result, counts } = await screenSubject({ name: 'John Smith', aliases: [], dob: '1971-05-14', country: 'AU', employer: null, role: null, source: 'request' }, servicesWith(newsFromEnv({}, transport())), found);
      assert.deepEqual([result.sanctions.strong_matches, result.risk_flag, counts], [1, 'high', true]);
      assert.match(result.limitations, /Sanctions screened against DFAT Consolidated List \(as of 2026-11-20\)/);
      assert.match(result.limitations, /News was not searched \(not configured\): News search \(GDELT DOC 2\.0\) is not configured on this server \(SVC_NEWS_GDELT_URL is unset\)/);
    } finally {
      store.close();
    }
  });
});
