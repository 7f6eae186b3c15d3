import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeProviders, type FakeProviders } from '../../test/helpers/fake-providers.ts';
import { createCrossref, unconfiguredCrossref } from './crossref.ts';
import { createProviderTransport } from './http.ts';
import { servicesFromEnv } from './index.ts';
import { createWayback, unconfiguredWayback } from './wayback.ts';
import { createSafeFetcher } from '../../lib/safe-fetch.ts';

describe('Crossref and Wayback clients against a local fake of their wire formats', () => {
  let fake: FakeProviders;
  before(async () => {
    fake = await startFakeProviders({
      works: {
        '10.1038/nature14539': { DOI: '10.1038/NATURE14539', title: ['Deep learning'], 'container-title': ['Nature'], issued: { 'date-parts': [[2015, 5, 27]] }, author: [{ given: 'Yann', family: 'LeCun' }, { given: 'Yoshua', family: 'Bengio' }], type: 'journal-article' },
        '10.5555/12345678': { DOI: '10.5555/12345678', title: ['Toward a Unified Theory of High-Energy Metaphysics'], subtitle: ['Silly String Theory'], issued: { 'date-parts': [[2008]] }, author: [{ name: 'Psychoceramics Society' }] },
      },
      agencies: { '10.48550/arxiv.1706.03762': 'datacite' },
      snapshots: { 'https://www.example.gov.au/report': { timestamp: '20190814021500', status: '200' }, 'https://www.example.gov.au/error': { timestamp: '20200101000000', status: '404' } },
      failing: ['/crossref/works/10.1000/broken'],
    });
  });
  after(() => fake.close());

  const transport = () => createProviderTransport({ userAgent: 'TenderIntelBot/0.6 (+https://ops.example)', minIntervalMs: 0, timeoutMs: 1_000 });
  const crossref = () => createCrossref({ baseUrl: `http://127.0.0.1:${fake.port}/crossref/`, mailto: 'checks@example.com', contactUrl: 'https://ops.example/contact', transport: transport() });
  const wayback = () => createWayback({ baseUrl: `http://127.0.0.1:${fake.port}/wayback-api`, transport: transport() });

  it('reads a registered work, DOI in lower case, with its year and family names, asking /works/{doi}', async () => {
    const before = fake.asked.length;
    assert.deepEqual(await crossref().work('10.1038/nature14539'), {
      ok: true,
      value: { doi: '10.1038/nature14539', title: 'Deep learning', subtitle: null, container: 'Nature', year: 2015, authors: ['LeCun', 'Bengio'], type: 'journal-article' },
    });
    assert.deepEqual(fake.asked.slice(before), ['GET /crossref/works/10.1038/nature14539']);
    const organisation = await crossref().work('10.5555/12345678');
    assert.deepEqual(organisation.ok && [organisation.value?.subtitle, organisation.value?.authors], ['Silly String Theory', ['Psychoceramics Society']]);
  });

  it('answers null for a DOI Crossref does not hold, names the agency of one it knows, and null for one nobody knows', async () => {
    assert.deepEqual(await crossref().work('10.48550/arxiv.1706.03762'), { ok: true, value: null });
    assert.deepEqual(await crossref().agency('10.48550/arxiv.1706.03762'), { ok: true, value: 'datacite' });
    assert.deepEqual(await crossref().agency('10.9999/nobody'), { ok: true, value: null });
  });

  it('looks a citation up with query.bibliographic and rows, best first', async () => {
    const before = fake.asked.length;
    const found = await crossref().searchBibliographic('LeCun Y, Bengio Y. Deep learning. Nature 2015', 2);
    assert.deepEqual(found.ok && found.value.map((work) => work.doi), ['10.1038/nature14539']);
    assert.equal(fake.asked.at(before), 'GET /crossref/works?query.bibliographic=LeCun+Y%2C+Bengio+Y.+Deep+learning.+Nature+2015&rows=2');
  });

  it('reports a 5xx as unreachable, and an unconfigured client as not configured naming its variable', async () => {
    assert.deepEqual(await crossref().work('10.1000/broken'), { ok: false, reason: 'unreachable', detail: `127.0.0.1:${fake.port} answered HTTP 503; try again later.` });
    assert.deepEqual(await unconfiguredCrossref().work('10.1038/nature14539'), { ok: false, reason: 'not_configured', detail: 'Crossref is not configured on this server (SVC_CROSSREF_MAILTO is unset), so it was not consulted.' });
  });

  it('finds the closest Wayback capture that answered 200, none for an error capture or an unknown URL', async () => {
    assert.deepEqual(await wayback().closest('https://www.example.gov.au/report'), {
      ok: true,
      value: { url: 'http://web.archive.org/web/20190814021500/https://www.example.gov.au/report', timestamp: '20190814021500', capturedAt: '2019-08-14T02:15:00Z' },
    });
    assert.deepEqual(await wayback().closest('https://www.example.gov.au/error'), { ok: true, value: null });
    assert.deepEqual(await wayback().closest('https://www.example.gov.au/never'), { ok: true, value: null });
    const before = fake.asked.length;
    await wayback().closest('https://www.example.gov.au/report', '20190101000000');
    assert.equal(fake.asked.at(before), 'GET /wayback-api/wayback/available?url=https%3A%2F%2Fwww.example.gov.au%2Freport&timestamp=20190101000000');
    assert.equal((await unconfiguredWayback().closest('https://x.example/')).ok, false);
  });

  it('refuses at start-up a provider address that is not an http(s) URL, naming the variable', () => {
    assert.throws(() => servicesFromEnv({ SVC_WAYBACK_URL: 'archive.org' }, createSafeFetcher()), /^Error: SVC_WAYBACK_URL must be an http or https URL such as https:\/\/archive\.org, got archive\.org$/);
    assert.throws(() => servicesFromEnv({ SVC_CROSSREF_MAILTO: 'a@b.example', SVC_CROSSREF_URL: 'ftp://x' }, createSafeFetcher()), /SVC_CROSSREF_URL must be an http or https URL/);
    assert.throws(() => servicesFromEnv({ SVC_PROVIDER_TIMEOUT_SECONDS: '-1' }, createSafeFetcher()), /SVC_PROVIDER_TIMEOUT_SECONDS must be a positive number/);
  });
});
