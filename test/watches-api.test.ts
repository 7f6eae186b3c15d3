import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { type StateDb } from '../data/state/db.ts';
import { issueStopToken } from '../data/watches/store.ts';
import { buyerKey } from '../lib/keys.ts';
import { SafeFetchError, type SafeFetcher } from '../lib/safe-fetch.ts';
import { secretHash } from '../lib/tokens.ts';
import { PUBLIC_URL, keyFor, signIn } from './helpers/access.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

const COMPUTED_AT = '2026-06-01T12:00:00.000Z';
const NOW = new Date('2026-06-01T13:00:00.000Z');
const ROADS_BUYER = 'Transport for NSW';
const ROADS_TENDER = tenderRow({ title: 'Road maintenance services', buyer: ROADS_BUYER, closing_date: '2026-07-01' });

const CIVIL_HOME = '<html><head><title>Ridge Civil</title></head><body><h1>Civil construction</h1><p>Road construction, road resurfacing, ' +
  'bridge repairs, drainage and stormwater works, earthworks and asphalt paving for councils.</p></body></html>';

/** Company websites as the SSRF-safe fetcher would answer: one civil contractor; an internal address refused. */
const fakeSite: SafeFetcher = async (url) => {
  if (new URL(url).hostname === 'intranet.local') throw new SafeFetchError('refused', 'intranet.local is not a public internet address.');
  return { url, status: 200, contentType: 'text/html', body: Buffer.from(CIVIL_HOME) };
};

let dataDir: string;
let store: ReleaseStore;
let state: StateDb;
let app: Awaited<ReturnType<typeof createApp>>;

before(async () => {
  dataDir = await makeDataDir();
  await seedRelease({
    dataDir,
    computedAt: COMPUTED_AT,
    tenders: [ROADS_TENDER],
    sources: [sourceRow()],
  });
  store = await ReleaseStore.open({ dataDir, now: () => NOW, pollMs: 60_000, log: () => {} });
  state = await openTestState();
  app = await createApp({ store, state, publicUrl: PUBLIC_URL, burst: false, now: () => NOW, fetchSite: fakeSite });
});

after(async () => {
  await store.close();
  await state.close();
  await rm(dataDir, { recursive: true, force: true });
});

const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  app.request(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const detailOf = async (response: Response) => ((await response.json()) as { detail: string }).detail;

interface WatchReply {
  watch_id: string;
  kind: string;
  criteria: Record<string, unknown>;
  created_at: string;
  new_after: string;
  emails_stopped: boolean;
  next_email: { cadence: string; not_before: string; rule: string };
  weekly_email?: { cadence: string; not_before: string };
}

describe('POST /v1/tenders/watch', () => {
  it('needs a signed-in session: anonymous and keyed callers get 401 with what to do, before the body is judged', async () => {
    const anonymous = await send('POST', '/v1/tenders/watch', {}, { kind: 'nonsense' });
    assert.equal(anonymous.status, 401);
    assert.match(await detailOf(anonymous), /signed-in session/);
    const person = await signIn(state, 'keyed@example.com', NOW);
    const keyed = await send('POST', '/v1/tenders/watch', (await keyFor(state, person.accountId)).headers, { kind: 'search', criteria: {} });
    assert.equal(keyed.status, 401);
    assert.match(await detailOf(keyed), /API key cannot save watches/);
    assert.equal((await send('GET', '/v1/tenders/watch', {})).status, 401);
  });

  it('saves each kind and describes it: criteria as saved, new after the served release, when the next email can come', async () => {
    const person = await signIn(state, 'kinds@example.com', NOW);
    const bodies = [
      { kind: 'search', criteria: { q: 'roads', jurisdiction: 'AU-NSW', closing_within_days: 30 } },
      { kind: 'company', criteria: { example: 'civil' } },
      { kind: 'company', criteria: { url: 'example.com.au' } },
      { kind: 'buyer', criteria: { buyer_key: buyerKey('AU-NSW', ROADS_BUYER) } },
      { kind: 'signals', criteria: { kind: 'contract_expiry', jurisdiction: 'AU-QLD', window_after: '2026-07-01' } },
      { kind: 'grants', criteria: { q: 'community', jurisdiction: 'AU' } },
      { kind: 'tender', criteria: { page_key: ROADS_TENDER.tender_key } },
    ];
    for (const body of bodies) {
      const response = await send('POST', '/v1/tenders/watch', person.headers, body);
      assert.equal(response.status, 201, `${body.kind}: ${await response.clone().text()}`);
      const watch = (await response.json()) as WatchReply;
      assert.match(watch.watch_id, /^watch_[0-9a-f]{16}$/);
      assert.deepEqual({ kind: watch.kind, criteria: watch.criteria }, body);
      assert.equal(watch.created_at, NOW.toISOString());
      assert.equal(watch.new_after, COMPUTED_AT, 'what is new is what appears after the release served when it was saved');
      assert.deepEqual({ cadence: watch.next_email.cadence, not_before: watch.next_email.not_before }, { cadence: 'daily', not_before: '2026-06-01' });
      assert.equal(watch.emails_stopped, false);
      if (body.kind === 'search') assert.deepEqual(watch.weekly_email && { cadence: watch.weekly_email.cadence, not_before: watch.weekly_email.not_before }, { cadence: 'weekly', not_before: '2026-06-08' });
      else assert.equal(watch.weekly_email, undefined, 'only a saved search gets the weekly round-up');
    }
    const profiles = await state.all<{ criteria: string; company_profile: string | null }>(
      "SELECT criteria, company_profile FROM watches WHERE account_id = ? AND kind = 'company' ORDER BY rowid", person.accountId);
    assert.equal(profiles[0]!.company_profile, null, 'an example is profiled when ranked');
    const read = JSON.parse(profiles[1]!.company_profile!) as { trades: { trade: string }[] };
    assert.ok(read.trades.length > 0, 'the website was read once, when saved, and its profile kept');

    const list = await send('GET', '/v1/tenders/watch', person.headers);
    assert.equal(list.status, 200);
    const { watches, per_kind } = (await list.json()) as { watches: WatchReply[]; per_kind: number };
    assert.deepEqual(watches.map((w) => w.kind), bodies.map((b) => b.kind));
    assert.equal(per_kind, 5);
  });

  it('holds five of each kind: a sixth is 409 with a sentence, another kind still saves, and deleting one frees a place', async () => {
    const person = await signIn(state, 'cap@example.com', NOW);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await send('POST', '/v1/tenders/watch', person.headers, { kind: 'search', criteria: { q: `roads ${i}` } });
      assert.equal(response.status, 201);
      ids.push(((await response.json()) as WatchReply).watch_id);
    }
    const sixth = await send('POST', '/v1/tenders/watch', person.headers, { kind: 'search', criteria: { q: 'bridges' } });
    assert.equal(sixth.status, 409);
    assert.match(await detailOf(sixth), /already have 5 search watches.*DELETE \/v1\/tenders\/watch\/\{watch_id\}/);
    assert.equal((await send('POST', '/v1/tenders/watch', person.headers, { kind: 'grants', criteria: {} })).status, 201);

    const other = await signIn(state, 'other@example.com', NOW);
    assert.equal((await send('DELETE', `/v1/tenders/watch/${ids[0]}`, other.headers)).status, 404, 'nobody deletes another person\'s watch');
    const deleted = await send('DELETE', `/v1/tenders/watch/${ids[0]}`, person.headers);
    assert.deepEqual(await deleted.json(), { watch_id: ids[0], deleted: true });
    assert.equal((await send('DELETE', `/v1/tenders/watch/${ids[0]}`, person.headers)).status, 404);
    assert.equal((await send('POST', '/v1/tenders/watch', person.headers, { kind: 'search', criteria: { q: 'bridges' } })).status, 201);
  });

  it('refuses bodies off the schema with 422 naming the field, and references the release does not hold with 400', async () => {
    const person = await signIn(state, 'bad@example.com', NOW);
    const cases: [unknown, number, RegExp][] = [
      [{ kind: 'weather', criteria: {} }, 422, /kind/],
      [{ kind: 'search', criteria: { jurisdiction: 'AU-XX' } }, 422, /criteria\.jurisdiction: must be one of AU, NZ/],
      [{ kind: 'search', criteria: { limit: 10 } }, 422, /limit/],
      [{ kind: 'search', criteria: { closing_within_days: 400 } }, 422, /closing_within_days/],
      [{ kind: 'company', criteria: { example: 'bakery' } }, 422, /civil, it or facilities|civil, it, facilities/],
      [{ kind: 'buyer', criteria: { buyer_key: 'Transport for NSW' } }, 422, /buyer_key/],
      [{ kind: 'signals', criteria: { kind: 'rumour' } }, 422, /contract_expiry/],
      [{ kind: 'search', criteria: { source: 'au_nowhere_tenders' } }, 400, /source=au_nowhere_tenders/],
      [{ kind: 'buyer', criteria: { buyer_key: 'au-nsw-000000000000' } }, 400, /buyer_key=au-nsw-000000000000/],
      [{ kind: 'tender', criteria: { page_key: 'Road maintenance' } }, 422, /page_key: must be a tender key/],
      [{ kind: 'tender', criteria: { page_key: '0'.repeat(32) } }, 400, /page_key=0{32}: no tender has this key/],
      [{ kind: 'company', criteria: { url: 'https://intranet.local/' } }, 400, /could not be read.*intranet\.local is not a public internet address/],
    ];
    for (const [body, status, detail] of cases) {
      const response = await send('POST', '/v1/tenders/watch', person.headers, body);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.match(await detailOf(response), detail, JSON.stringify(body));
    }
    assert.equal(((await (await send('GET', '/v1/tenders/watch', person.headers)).json()) as { watches: unknown[] }).watches.length, 0);
  });

  it('refuses a signed-in change from another site (403), as every session write', async () => {
    const person = await signIn(state, 'cross@example.com', NOW);
    const response = await send('POST', '/v1/tenders/watch', { ...person.headers, origin: 'https://evil.example' }, { kind: 'search', criteria: {} });
    assert.equal(response.status, 403);
  });
});

describe('the stop link', () => {
  it('stops without signing in: GET shows a page, POST is the RFC 8058 one-click, both repeatable; unknown tokens are 404', async () => {
    const person = await signIn(state, 'stopper@example.com', NOW);
    assert.equal((await send('POST', '/v1/tenders/watch', person.headers, { kind: 'search', criteria: { q: 'roads' } })).status, 201);
    await issueStopToken(state, person.accountId, 'stop_first', NOW);
    await issueStopToken(state, person.accountId, 'stop_second', NOW);
    const kept = (await state.all<{ token_hash: string }>('SELECT token_hash FROM watch_stop_tokens WHERE account_id = ?', person.accountId)).map((row) => row.token_hash);
    assert.deepEqual(kept.sort(), [secretHash('stop_first'), secretHash('stop_second')].sort(), 'only hashes are kept');

    const page = await send('GET', '/v1/tenders/watch/stop/stop_first', {});
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /no more watch emails to stopper@example\.com/);
    const listed = (await (await send('GET', '/v1/tenders/watch', person.headers)).json()) as { watches: WatchReply[] };
    assert.equal(listed.watches[0]!.emails_stopped, true);

    const oneClick = await app.request('/v1/tenders/watch/stop/stop_second', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.status, 200);
    assert.deepEqual(await oneClick.json(), { stopped: true, already_stopped: true, detail: 'No more watch emails will be sent to this address.' });

    assert.equal((await send('GET', '/v1/tenders/watch/stop/stop_unknown', {})).status, 404);
    assert.equal((await send('POST', '/v1/tenders/watch/stop/stop_unknown', {})).status, 404);

    const resumed = await send('POST', '/v1/tenders/watch', person.headers, { kind: 'buyer', criteria: { buyer_key: buyerKey('AU-NSW', ROADS_BUYER) } });
    assert.equal(((await resumed.json()) as WatchReply).emails_stopped, false, 'saving a watch starts the emails again');
  });

  it('is in the OpenAPI document with the watch routes', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    assert.deepEqual(Object.keys(document.paths['/v1/tenders/watch'] ?? {}).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(document.paths['/v1/tenders/watch/stop/{token}'] ?? {}).sort(), ['get', 'post']);
    assert.ok(document.paths['/v1/tenders/watch/{watch_id}']?.delete);
  });
});
