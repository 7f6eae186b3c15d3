import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { judgeReferences } from '../api/checkers/references/analyse.ts';
import type { FactCheckResult } from '../api/checkers/references/result.ts';
import { checkerApp, postFiles, postJson, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeProviders, type FakeProviders, type FakeWorld } from './helpers/fake-providers.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
const detailOf = async (reply: Response) => ((await reply.json()) as { detail: string }).detail;

/** A council report citing pages of every kind, two DOIs and a book, with one table that adds up and one that does not. */
const REPORT = `Road network report 2024

Sealed road length grew from 400 km to 460 km, an increase of 15%. Resealing is scheduled in the maintenance plan (https://www.council.example/roads/maintenance-plan).
The 2019 bridge funding announcement (https://www.council.example/news/2019/bridge-funding) set the program.
The old traffic page (https://www.council.example/traffic) and the missing page (https://www.council.example/gone-page) are cited too.
Counts are published at https://data.slow.example/traffic-counts. Household spending rose 4.2% in the June quarter [1].

Budget\tAmount
Resealing\t1,200
Drainage\t850
Signage\t300
Total\t2,450

Of the 40 bridges inspected, 6 of 40 (15%) needed repair.

References
[1] Australian Bureau of Statistics (2024). Household spending indicator, June quarter. https://www.abs.example/household-spending
[2] Carberry, J. (2008). Toward a unified theory of high-energy metaphysics: Silly string theory. Journal of Psychoceramics, 5(11), 1-3. https://doi.org/10.5555/12345678
[3] Smith, J. (2018). Pavement life under heavy vehicle loads. Road Research, 4(2), 10-20. doi:10.5555/87654321
[4] Jones, P. (2015). Asset management for local government. Public Works Review, 7(1), 33-41.
[5] Brown, A. (2020). A study that does not exist anywhere. Imaginary Journal, 1(1), 1-2. doi:10.9999/nothing.here
`;

const WORLD: FakeWorld = {
  pages: {
    'www.council.example/robots.txt': { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
    'www.council.example/roads/maintenance-plan': { status: 200, body: '<html><head><title>Road maintenance plan 2024–2028</title></head><body><p>Resealing is scheduled across the network.</p></body></html>' },
    'www.council.example/traffic': { redirect: 'https://www.council.example/' },
    'www.council.example/': { status: 200, body: '<html><head><title>Council home</title></head><body>Welcome</body></html>' },
    'www.council.example/gone-page': { status: 200, body: '<html><head><title>Page not found</title></head><body><h1>Sorry, that page cannot be found</h1></body></html>' },
    'data.slow.example/traffic-counts': { silent: true },
    'www.abs.example/household-spending': { status: 200, body: '<html><head><title>Household spending indicator</title></head><body><p>Household spending rose 4.2% in the June quarter.</p><p>Spending on services grew most.</p></body></html>' },
    'web.archive.org/web/20190814021500/https://www.council.example/news/2019/bridge-funding': { status: 200, body: '<html><head><title>Bridge funding</title></head><body><p>The council announced $12 million for bridges in 2019.</p></body></html>' },
  },
  snapshots: { 'https://www.council.example/news/2019/bridge-funding': { timestamp: '20190814021500', status: '200' } },
  works: {
    '10.5555/12345678': { DOI: '10.5555/12345678', title: ['Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory'], 'container-title': ['Journal of Psychoceramics'], issued: { 'date-parts': [[2008, 8, 13]] }, author: [{ given: 'Josiah', family: 'Carberry' }], type: 'journal-article' },
    '10.5555/87654321': { DOI: '10.5555/87654321', title: ['Soil moisture and crop yields in dry years'], issued: { 'date-parts': [[2017]] }, author: [{ family: 'Nguyen' }], type: 'journal-article' },
    '10.5555/11112222': { DOI: '10.5555/11112222', title: ['Asset management for local government'], 'container-title': ['Public Works Review'], issued: { 'date-parts': [[2015]] }, author: [{ family: 'Jones' }], type: 'journal-article' },
  },
};

describe('POST /v1/verify-references and GET /v1/fact-checks/{check_id}', () => {
  let fake: FakeProviders;
  let checker: CheckerApp;
  before(async () => {
    fake = await startFakeProviders(WORLD);
    checker = await checkerApp({ services: fake.services(), fetchDocument: fake.webFetcher });
  });
  after(async () => {
    await checker.close();
    await fake.close();
  });

  const statusOf = (result: FactCheckResult, key: string) => result.references.find((reference) => reference.url === key || reference.doi === key || reference.as_written.includes(key))?.status;

  it('classifies every reference with its evidence, recomputes the figures, stores the result under its id, and counts one unit', async () => {
    const reply = await postJson(checker.app, '/v1/verify-references', { text: REPORT });
    assert.equal(reply.status, 200);
    const result = (await reply.json()) as FactCheckResult;
    assert.match(result.check_id, /^fc_[0-9a-f]{16}$/);
    assert.equal(result.permalink, `https://checks.example/v1/fact-checks/${result.check_id}`);
    assert.deepEqual(
      Object.fromEntries(result.references.map((reference) => [reference.url ?? reference.as_written.slice(0, 12), reference.status])),
      {
        'https://www.council.example/roads/maintenance-plan': 'live',
        'https://www.council.example/news/2019/bridge-funding': 'archived',
        'https://www.council.example/traffic': 'dead',
        'https://www.council.example/gone-page': 'dead',
        'https://data.slow.example/traffic-counts': 'unreachable_now',
        'https://www.abs.example/household-spending': 'live',
        'https://doi.org/10.5555/12345678': 'verified',
        'https://doi.org/10.5555/87654321': 'title_mismatch',
        '[4] Jones, P': 'found',
        'https://doi.org/10.9999/nothing.here': 'not_found',
      },
    );
    const traffic = result.references.find((reference) => reference.url === 'https://www.council.example/traffic')!;
    assert.match(traffic.evidence[0]!, /^Redirected to the site's home page/);
    const archived = result.references.find((reference) => reference.status === 'archived')!;
    assert.deepEqual(archived.archived_copy, { url: 'http://web.archive.org/web/20190814021500/https://www.council.example/news/2019/bridge-funding', captured_at: '2019-08-14T02:15:00Z' });
    assert.equal(result.references.find((reference) => reference.doi === '10.5555/87654321')!.registered?.title, 'Soil moisture and crop yields in dry years');
    assert.match(result.references.find((reference) => reference.status === 'unreachable_now')!.evidence[0]!, /^No answer on one attempt/);
    assert.equal(result.references.find((reference) => reference.as_written.startsWith('[4]'))!.registered?.doi, '10.5555/11112222');

    assert.deepEqual(
      result.internal_consistency.map((item) => [item.kind, item.stated, item.recomputed, item.consistent]),
      [['percentage_change', 15, 15, true], ['table_total', 2450, 2350, false], ['percentage', 15, 15, true]],
    );
    assert.deepEqual(result.internal_consistency[1]!.numbers_used, [1200, 850, 300]);
    assert.equal(result.summary.internal_consistency.inconsistent, 1);
    assert.deepEqual(result.claims, []);
    assert.equal(await unitsUsed(checker), 1);

    const stored = await checker.app.request(`/v1/fact-checks/${result.check_id}`);
    assert.equal(stored.status, 200);
    assert.deepEqual(await stored.json(), result);
  });

  it('deep=1 judges each citing sentence against the page it cites, the archived copy for an archived link', async () => {
    const result = (await (await postJson(checker.app, '/v1/verify-references?deep=1', { text: REPORT })).json()) as FactCheckResult;
    assert.equal(result.deep, true);
    assert.deepEqual(
      result.claims.map((claim) => [claim.reference_id, claim.sentence, claim.verdict, claim.source_url]),
      [
        ['ref_1', 'Resealing is scheduled in the maintenance plan (https://www.council.example/roads/maintenance-plan).', 'unclear', 'https://www.council.example/roads/maintenance-plan'],
        ['ref_2', 'The 2019 bridge funding announcement (https://www.council.example/news/2019/bridge-funding) set the program.', 'unclear', 'http://web.archive.org/web/20190814021500/https://www.council.example/news/2019/bridge-funding'],
        ['ref_6', 'Household spending rose 4.2% in the June quarter [1].', 'supports', 'https://www.abs.example/household-spending'],
      ],
    );
    assert.equal(result.claims[2]!.evidence, 'Household spending rose 4.2% in the June quarter.');
    assert.equal(result.summary.claims['supports'], 1);
    assert.ok(result.claims.every((claim) => ['supports', 'contradicts', 'unclear'].includes(claim.verdict)));
    assert.notEqual(result.check_id, checkIdOfPlain(), 'deep and plain checks are stored apart');
  });

  let plainCheckId = '';
  const checkIdOfPlain = () => plainCheckId;
  it('gives the same check_id for the same document, and 404 or 400 for ids it does not know', async () => {
    const first = (await (await postJson(checker.app, '/v1/verify-references', { text: REPORT })).json()) as FactCheckResult;
    const second = (await (await postJson(checker.app, '/v1/verify-references', { text: REPORT })).json()) as FactCheckResult;
    plainCheckId = first.check_id;
    assert.equal(first.check_id, second.check_id);
    const unknown = await checker.app.request('/v1/fact-checks/fc_0000000000000000');
    assert.equal(unknown.status, 404);
    assert.match(await detailOf(unknown), /^No fact-check has the id fc_0000000000000000/);
    assert.equal((await checker.app.request('/v1/fact-checks/warrant_0000000000000000')).status, 400);
  });

  it('streams received, working, then the result with ?stream=1', async () => {
    const reply = await postJson(checker.app, '/v1/verify-references?stream=1', { text: 'See https://www.council.example/roads/maintenance-plan for the plan.' });
    const text = await reply.text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    assert.equal(events[0], 'received');
    assert.ok(events.includes('working'));
    assert.equal(events.at(-1), 'result');
    assert.match(text, /"status":"live"/);
  });

  it('reads the document from a multipart `file` or a `{url}` as well as from `text`', async () => {
    const uploaded = await postFiles(checker.app, '/v1/verify-references', 'file', [{ bytes: new TextEncoder().encode('Plan: https://www.council.example/roads/maintenance-plan'), name: 'notes.txt' }]);
    const fromFile = (await uploaded.json()) as FactCheckResult;
    assert.deepEqual([uploaded.status, fromFile.references[0]?.status, fromFile.references[0]?.location.filename], [200, 'live', 'notes.txt']);
    const fetched = await postJson(checker.app, '/v1/verify-references', { url: 'https://www.abs.example/household-spending' });
    const fromUrl = (await fetched.json()) as FactCheckResult;
    assert.equal(fetched.status, 200);
    assert.equal(fromUrl.references.length, 0);
    assert.equal(fromUrl.summary.headline, 'No references found; no calculations found to recompute.');
  });

  it('does not charge a page whose only links are its own and whose only figures are citation markers and dates', async () => {
    // The shape of issue 28's Wikipedia page: menu and article links to the site itself, footnote markers
    // [309]–[312] beside "a total of 313" (once summed into a false "does not add up"), notes without a title.
    const page = `<!doctype html><html><head><link rel="canonical" href="https://www.council.example/wiki/Outbreak"></head><body>
      <nav><a href="https://www.council.example/">Home</a> <a href="https://www.council.example/roads/maintenance-plan">Roads</a></nav>
      <div id="content"><p>Cases rose in Lagos<sup class="reference"><a href="#cite_note-309">[309]</a></sup><sup class="reference"><a href="#cite_note-310">[310]</a></sup>
      and in Port Harcourt<sup class="reference"><a href="#cite_note-311">[311]</a></sup><sup class="reference"><a href="#cite_note-312">[312]</a></sup>, a total of 313 cases by 4 September,
      as the <a href="https://www.council.example/traffic">council's own page</a> said.</p>
      <h2>Notes</h2><ol class="references" start="309"><li id="cite_note-309">Lagos State Ministry of Health briefing.</li><li id="cite_note-310">Lagos State press release.</li>
      <li id="cite_note-311">Rivers State briefing.</li><li id="cite_note-312">Rivers State press release.</li></ol></div>
      <footer><a href="https://www.council.example/about">About</a></footer></body></html>`;
    const before = await unitsUsed(checker);
    const reply = await postJson(checker.app, '/v1/verify-references', { text: page });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('svc-counted'), 'no');
    const result = (await reply.json()) as FactCheckResult;
    assert.deepEqual(result.references.map((reference) => [reference.kind, reference.as_written.slice(0, 12), reference.status]), [
      ['citation', '[309] Lagos ', 'not_checked'],
      ['citation', '[310] Lagos ', 'not_checked'],
      ['citation', '[311] Rivers', 'not_checked'],
      ['citation', '[312] Rivers', 'not_checked'],
    ]);
    assert.deepEqual(result.internal_consistency, []);
    assert.equal(await unitsUsed(checker), before);
  });

  it('answers the sandbox fixture, labelled and never metered', async () => {
    const before = await unitsUsed(checker);
    const reply = await postJson(checker.app, '/v1/verify-references', { text: 'x' }, { 'svc-sandbox': 'true' });
    const body = (await reply.json()) as FactCheckResult & { sandbox: boolean };
    assert.equal(body.sandbox, true);
    assert.equal(body.check_id, 'fc_0123456789abcdef');
    assert.equal(await unitsUsed(checker), before);
  });

  it('refuses an image, which the checker does not read, naming what arrived', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
    const reply = await postJson(checker.app, '/v1/verify-references', { bytes_b64: png.toString('base64'), filename: 'chart.png' });
    assert.equal(reply.status, 400);
    assert.match(await detailOf(reply), /received a PNG image; reference checks accept PDF, Word \(\.docx\), plain text or HTML/);
  });
});

describe('verify-references with no provider configured', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp()));
  after(() => checker.close());

  it('says per item that Crossref is not configured, never a finding, and does not count a call where nothing could be checked', async () => {
    const reply = await postJson(checker.app, '/v1/verify-references', { text: 'Smith, J. (2018). Pavement life under heavy vehicle loads. Road Research, 4(2). doi:10.5555/87654321' });
    assert.equal(reply.status, 200);
    const result = (await reply.json()) as FactCheckResult;
    assert.deepEqual(result.references.map((reference) => [reference.kind, reference.status]), [['doi', 'not_checked']]);
    assert.equal(result.references[0]!.evidence[0], 'Crossref is not configured on this server (SVC_CROSSREF_MAILTO is unset), so it was not consulted.');
    assert.equal(await unitsUsed(checker), 0);
  });

  it('still recomputes the arithmetic, and that counts', async () => {
    const result = (await (await postJson(checker.app, '/v1/verify-references', { text: 'The grant was 4 + 5 = 10 thousand dollars, see doi:10.5555/87654321.' })).json()) as FactCheckResult;
    assert.deepEqual(result.internal_consistency.map((item) => [item.kind, item.consistent, item.recomputed]), [['expression', false, 9]]);
    assert.equal(await unitsUsed(checker), 1);
  });
});

describe('POST /v1/feedback', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp()));
  after(() => checker.close());

  it('records up or down for detect_ai_text or verify_references', async () => {
    const reply = await postJson(checker.app, '/v1/feedback', { tool: 'verify_references', verdict: 'down', ref: 'fc_0123456789abcdef', note: 'ref_2 is live for me' });
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as { received: boolean; recorded: boolean; feedback_id: string };
    assert.deepEqual([body.received, body.recorded], [true, true]);
    assert.deepEqual({ ...await checker.state.get<object>('SELECT tool, verdict, ref, note FROM checker_feedback WHERE feedback_id = ?', body.feedback_id) }, { tool: 'verify_references', verdict: 'down', ref: 'fc_0123456789abcdef', note: 'ref_2 is live for me' });
  });

  it('answers 422 naming the field for an unknown verdict or tool', async () => {
    const verdict = await postJson(checker.app, '/v1/feedback', { tool: 'detect_ai_text', verdict: 'meh' });
    assert.equal(verdict.status, 422);
    assert.match(await detailOf(verdict), /verdict.*must be up or down/);
    const tool = await postJson(checker.app, '/v1/feedback', { tool: 'inspect_document', verdict: 'up' });
    assert.equal(tool.status, 422);
    assert.match(await detailOf(tool), /tool.*must be detect_ai_text or verify_references/);
  });

  it('still succeeds when the feedback cannot be written', async () => {
    await checker.state.run('DROP TABLE checker_feedback');
    const reply = await postJson(checker.app, '/v1/feedback', { tool: 'detect_ai_text', verdict: 'up' });
    assert.equal(reply.status, 200);
    assert.deepEqual(await reply.json(), { received: true, recorded: false, feedback_id: null });
  });
});

describe('verify-references under its time budget', () => {
  it('reports the references whose turn comes after the budget ran out as not checked, saying why', async () => {
    const fake = await startFakeProviders({ pages: { 'www.council.example/roads/maintenance-plan': { status: 200, body: '<title>Plan</title><p>Resealing.</p>' } } });
    try {
      const read = { documents: [{ sha256: 'a'.repeat(64), filename: null, kind: 'text' as const, page_count: 1, ocr_used: false, pages: [{ page: 1, source: 'text_layer' as const, text: 'See https://www.council.example/roads/maintenance-plan and doi:10.5555/12345678.' }] }] };
      const spent = new AbortController();
      spent.abort();
      const judged = await judgeReferences(read, { deep: true, budget: spent.signal }, fake.services(), { now: new Date('2026-06-10T02:00:00Z'), progress: () => {} });
      assert.deepEqual(judged.result.references.map((reference) => [reference.kind, reference.status, reference.evidence[0]]), [
        ['url', 'not_checked', "Not checked: the call's 90 s for asking outside services ran out before this reference's turn."],
        ['doi', 'not_checked', "Not checked: the call's 90 s for asking outside services ran out before this reference's turn."],
      ]);
      assert.deepEqual(judged.result.claims, []);
      assert.equal(judged.counts, false);
      assert.deepEqual(fake.asked, [], 'nothing was asked once the budget was spent');
    } finally {
      await fake.close();
    }
  });
});
