import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { type StateDb } from '../data/state/db.ts';
import { PUBLIC_URL, keyFor, signIn } from './helpers/access.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');

const ownPage = tenderRow({
  title: 'Stormwater pump station renewal',
  reference: 'SW-1',
  closing_date: '2026-07-01',
  url: 'https://buy.nsw.gov.au/notices/sw-1',
  listing_url: 'https://buy.nsw.gov.au/notices',
});
const listingOnly = tenderRow({
  source: 'au_wa_tenders_wa',
  source_tag: 'WA',
  jurisdiction: 'AU-WA',
  title: 'Stormwater drain cleaning',
  reference: 'WA-7',
  closing_date: '2026-07-02',
  url: 'https://tenders.wa.gov.au/open/',
  listing_url: 'https://tenders.wa.gov.au/open',
});
const noLink = tenderRow({ title: 'Stormwater outfall repairs', reference: 'SW-3', closing_date: '2026-07-03', url: '' });
const LINK_FIELDS = ['link', 'url', 'listing_url', 'source_url'];

describe('what identity unlocks', () => {
  let dataDir: string;
  let store: ReleaseStore;
  let state: StateDb;
  let app: Awaited<ReturnType<typeof createApp>>;
  let keyHeaders: Record<string, string>;
  let sessionHeaders: Record<string, string>;

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({
      dataDir,
      tenders: [ownPage, listingOnly, noLink],
      sources: [sourceRow(), sourceRow({ id: 'au_wa_tenders_wa', tag: 'WA', name: 'Tenders WA', jurisdiction: 'AU-WA', homepage: 'https://tenders.wa.gov.au/' })],
    });
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    state = await openTestState();
    app = await createApp({ store, state, publicUrl: PUBLIC_URL, burst: false, now: () => NOW });
    const person = await signIn(state, 'reader@example.com', NOW);
    sessionHeaders = person.headers;
    keyHeaders = (await keyFor(state, person.accountId)).headers;
  });

  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const getJson = async (path: string, headers: Record<string, string> = {}) => {
    const response = await app.request(path, { headers });
    assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
    return (await response.json()) as Record<string, unknown>;
  };

  it('shows tender links to a key or a session and withholds them from anonymous callers, in search and single reads', async () => {
    const search = '/v1/tenders?q=stormwater%20pump';
    const anonymous = (await getJson(search)).results as Record<string, unknown>[];
    for (const field of LINK_FIELDS) assert.equal(field in anonymous[0]!, false, `${field} withheld`);

    for (const headers of [keyHeaders, sessionHeaders]) {
      const [tender] = (await getJson(search, headers)).results as Record<string, unknown>[];
      assert.equal(tender!.link, 'https://buy.nsw.gov.au/notices/sw-1');
      assert.equal(tender!.url, 'https://buy.nsw.gov.au/notices/sw-1');
      assert.equal(tender!.listing_url, 'https://buy.nsw.gov.au/notices');
      assert.equal(tender!.source_url, 'https://buy.nsw.gov.au/');
      const single = await getJson(`/v1/tenders/${String(ownPage.tender_key)}`, headers);
      assert.equal(single.url, 'https://buy.nsw.gov.au/notices/sw-1');
    }
    const single = await getJson(`/v1/tenders/${String(ownPage.tender_key)}`);
    for (const field of LINK_FIELDS) assert.equal(field in single, false, `${field} withheld`);
  });

  it('never serves one audience\'s cached search to another, and each reply carries its own caller\'s rate headers', async () => {
    const search = '/v1/tenders?q=drain';
    const keyed = await app.request(search, { headers: keyHeaders });
    assert.equal(((await keyed.json()) as { results: Record<string, unknown>[] }).results[0]!.url, 'https://tenders.wa.gov.au/open/');
    assert.equal(keyed.headers.get('RateLimit-Limit'), '100');
    const anonymous = await app.request(search);
    assert.equal('url' in ((await anonymous.json()) as { results: Record<string, unknown>[] }).results[0]!, false);
    assert.equal(anonymous.headers.get('RateLimit-Limit'), '20');
    const keyedAgain = await app.request(search, { headers: keyHeaders });
    assert.equal(keyedAgain.headers.get('RateLimit-Limit'), '100', 'a cached body gets the current caller\'s headers');
  });

  it('shows the source registry\'s URLs to a key or a session only', async () => {
    const anonymous = (await getJson('/v1/tenders/sources')).sources as Record<string, unknown>[];
    assert.ok(anonymous.every((source) => !('homepage' in source)));
    const keyed = (await getJson('/v1/tenders/sources', keyHeaders)).sources as Record<string, unknown>[];
    assert.deepEqual(keyed.map((source) => source.homepage), ['https://buy.nsw.gov.au/', 'https://tenders.wa.gov.au/']);
  });

  it('never answers anonymous callers 401 on reads, even with a stale session cookie', async () => {
    for (const path of ['/v1/tenders', '/v1/tenders/sources', '/v1/tenders/strip', `/v1/tenders/${String(ownPage.tender_key)}`, '/v1/usage', '/v1/pricing', '/health']) {
      const callers: Record<string, string>[] = [{}, { cookie: 'svc_session=session_expired-or-made-up' }];
      for (const headers of callers) {
        assert.equal((await app.request(path, { headers })).status, 200, `${path} ${JSON.stringify(headers)}`);
      }
    }
  });

  describe('GET /v1/tenders/{key}/portal', () => {
    it('answers 401 without a key or session, even for an unknown tender', async () => {
      for (const key of [String(ownPage.tender_key), '0123456789abcdef0123456789abcdef']) {
        const response = await app.request(`/v1/tenders/${key}/portal`);
        assert.equal(response.status, 401);
        assert.match(((await response.json()) as { detail: string }).detail, /API key .* or a signed-in session/);
      }
    });

    it('gives the link, the portal name and whether the link opens a listing', async () => {
      assert.deepEqual(await getJson(`/v1/tenders/${String(ownPage.tender_key)}/portal`, keyHeaders), {
        url: 'https://buy.nsw.gov.au/notices/sw-1',
        portal_name: 'buy.nsw tenders',
        link_is_listing: false,
      });
      assert.deepEqual(await getJson(`/v1/tenders/${String(listingOnly.tender_key)}/portal`, sessionHeaders), {
        url: 'https://tenders.wa.gov.au/open/',
        portal_name: 'Tenders WA',
        link_is_listing: true,
      });
    });

    it('answers 404 for an unknown key and for a tender with no link held, and 400 for a malformed key', async () => {
      for (const [key, status] of [['0123456789abcdef0123456789abcdef', 404], [String(noLink.tender_key), 404], ['not-a-key', 400]] as const) {
        const response = await app.request(`/v1/tenders/${key}/portal`, { headers: keyHeaders });
        assert.equal(response.status, status, key);
        assert.deepEqual(Object.keys((await response.json()) as object), ['detail']);
      }
    });
  });
});
