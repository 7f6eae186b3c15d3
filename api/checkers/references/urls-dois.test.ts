import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Crossref } from '../../providers/crossref.ts';
import type { ProviderResult } from '../../providers/http.ts';
import type { PageAnswer } from '../../providers/page-fetch.ts';
import type { WaybackSnapshot } from '../../providers/wayback.ts';
import { checkCitation, checkDoi, compareTitles } from './dois.ts';
import { checkLink, deadSignal } from './urls.ts';

const page = (over: Partial<PageAnswer>): PageAnswer => ({ url: 'https://site.example/a/page', finalUrl: 'https://site.example/a/page', status: 200, method: 'GET', contentType: 'text/html', title: 'A page', text: 'Some text.', ...over });
const services = (read: ProviderResult<PageAnswer>, snapshot: ProviderResult<WaybackSnapshot | null> = { ok: true, value: null }) => ({
  pages: { read: async () => read },
  wayback: { closest: async () => snapshot },
});

describe('checkLink', () => {
  it('calls a 2xx page live, a 404 dead, a 404 with a Wayback copy archived', async () => {
    assert.equal((await checkLink('https://site.example/a/page', services({ ok: true, value: page({}) }))).check.status, 'live');
    const dead = await checkLink('https://site.example/a/page', services({ ok: true, value: page({ status: 404, method: 'HEAD' }) }));
    assert.deepEqual([dead.check.status, dead.check.evidence], ['dead', ['HEAD answered HTTP 404.', 'The Wayback Machine holds no copy that answered HTTP 200.']]);
    const archived = await checkLink('https://site.example/a/page', services({ ok: true, value: page({ status: 410 }) }, { ok: true, value: { url: 'http://web.archive.org/web/20200101000000/https://site.example/a/page', timestamp: '20200101000000', capturedAt: '2020-01-01T00:00:00Z' } }));
    assert.deepEqual([archived.check.status, archived.check.archived_copy], ['archived', { url: 'http://web.archive.org/web/20200101000000/https://site.example/a/page', captured_at: '2020-01-01T00:00:00Z' }]);
  });

  it('never calls one failed attempt, a 403, a 429 or a 5xx dead: unreachable now, with the archive looked up', async () => {
    for (const read of [{ ok: false, reason: 'unreachable', detail: 'site.example did not answer in time.' } as const, { ok: true, value: page({ status: 403 }) } as const, { ok: true, value: page({ status: 503 }) } as const]) {
      assert.equal((await checkLink('https://site.example/a/page', services(read))).check.status, 'unreachable_now');
    }
  });

  it('does not check what robots.txt or the SSRF guard refuses, and says an archive that is not configured was not consulted', async () => {
    assert.equal((await checkLink('https://site.example/a/page', services({ ok: false, reason: 'refused', detail: "Not read: the site's robots.txt asks bots not to fetch it." }))).check.status, 'not_checked');
    const dead = await checkLink('https://site.example/a/page', services({ ok: true, value: page({ status: 404 }) }, { ok: false, reason: 'not_configured', detail: 'The Wayback Machine is not configured on this server (SVC_WAYBACK_URL is unset), so it was not consulted.' }));
    assert.deepEqual([dead.check.status, dead.check.evidence[1]], ['dead', 'Archive not consulted: The Wayback Machine is not configured on this server (SVC_WAYBACK_URL is unset), so it was not consulted.']);
  });

  it('deadSignal: a redirect to the root or to an error page, or a page saying it was not found', () => {
    assert.match(deadSignal('https://site.example/a/page', page({ finalUrl: 'https://site.example/' }))!, /^Redirected to the site's home page/);
    assert.equal(deadSignal('https://site.example/', page({ finalUrl: 'https://site.example/' })), null, 'a cited home page is not a redirect to it');
    assert.match(deadSignal('https://site.example/a/page', page({ finalUrl: 'https://site.example/errors/404.html' }))!, /^Redirected to an error page/);
    assert.match(deadSignal('https://site.example/a/page', page({ title: 'Page Not Found | Council' }))!, /soft 404/);
    assert.match(deadSignal('https://site.example/a/page', page({ title: 'Council', text: 'Sorry, that page cannot be found\nTry the search.' }))!, /says “Sorry, that page cannot be found”/);
    assert.equal(deadSignal('https://site.example/a/page', page({ title: '404 bus route timetable' })), null);
    assert.equal(deadSignal('https://site.example/a/page', page({ title: 'Annual report', text: 'The 404 bus route was not found to be late.' })), null);
  });
});

describe('DOI and citation checks', () => {
  const work = (doi: string, title: string, year: number | null = 2015, subtitle: string | null = null) => ({ doi, title, subtitle, container: 'Nature', year, authors: ['LeCun'], type: 'journal-article' });
  const crossref = (over: Partial<Crossref>): Crossref => ({
    work: async () => ({ ok: true, value: null }),
    agency: async () => ({ ok: true, value: null }),
    searchBibliographic: async () => ({ ok: true, value: [] }),
    ...over,
  });

  it('compareTitles ignores case, accents, punctuation, "&"/"and" and a dropped or added subtitle, but not one changed meaningful word', () => {
    const similarity = (claimed: string, registered: ReturnType<typeof work>) => compareTitles(claimed, registered).similarity;
    assert.equal(similarity('Deep Learning.', work('d', 'Deep learning')), 1);
    assert.equal(similarity('Toward a unified theory of high-energy metaphysics', work('d', 'Toward a Unified Theory of High-Energy Metaphysics', 2008, 'Silly String Theory')), 1);
    assert.equal(similarity('Toward a unified theory of high-energy metaphysics: silly string theory', work('d', 'Toward a Unified Theory of High-Energy Metaphysics', 2008, 'Silly String Theory')), 1);
    assert.equal(similarity('Roads & bridges in Māori communities', work('d', 'Roads and Bridges in Maori Communities')), 1);
    assert.ok(similarity('Pavement life under heavy vehicle loads', work('d', 'Soil moisture and crop yields in dry years')) < 0.5);
    assert.deepEqual(compareTitles('Why most published research findings are true', work('d', 'Why Most Published Research Findings Are False')), { similarity: 0.91, missing: ['false'], verdict: 'partial' });
    assert.deepEqual(compareTitles('Deep learnin', work('d', 'Deep learning')), { similarity: 0.92, missing: [], verdict: 'match' });
  });

  it('verifies a matching title, flags a different one, and says when there is no title to compare', async () => {
    const client = crossref({ work: async () => ({ ok: true, value: work('10.1038/nature14539', 'Deep learning') }) });
    assert.equal((await checkDoi('10.1038/nature14539', 'Deep learning', client)).status, 'verified');
    assert.equal((await checkDoi('10.1038/nature14539', 'Shallow networks for tabular data', client)).status, 'title_mismatch');
    assert.equal((await checkDoi('10.1038/nature14539', 'The deep learning', client)).status, 'partial_title_match');
    assert.equal((await checkDoi('10.1038/nature14539', null, client)).status, 'registered');
  });

  it('names another agency, says not found otherwise, and turns an outage into unreachable_now or not_checked, never a finding', async () => {
    assert.equal((await checkDoi('10.48550/arxiv.1', 'X y z', crossref({ agency: async () => ({ ok: true, value: 'datacite' }) }))).status, 'registered_elsewhere');
    assert.equal((await checkDoi('10.9999/none', 'X y z', crossref({}))).status, 'not_found');
    assert.equal((await checkDoi('10.1/x', 'X y z', crossref({ work: async () => ({ ok: false, reason: 'unreachable', detail: 'down' }) }))).status, 'unreachable_now');
    assert.equal((await checkDoi('10.1/x', 'X y z', crossref({ work: async () => ({ ok: false, reason: 'not_configured', detail: 'off' }) }))).status, 'not_checked');
  });

  it('finds a citation by title and year (±1), calls a close title or a wrong year a possible match, and a distant one not found', async () => {
    const client = crossref({ searchBibliographic: async () => ({ ok: true, value: [work('10.1/a', 'Asset management for local government', 2015)] }) });
    assert.equal((await checkCitation('Jones (2016) Asset management…', 'Asset management for local government', 2016, client)).status, 'found');
    assert.equal((await checkCitation('Jones (2019) Asset management…', 'Asset management for local government', 2019, client)).status, 'possible_match');
    assert.equal((await checkCitation('Jones (2015) Tree planting…', 'Tree planting in urban streets', 2015, client)).status, 'not_found');
  });
});
