import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeFetcher } from '../../../lib/safe-fetch.ts';
import { startFakeGdelt, type FakeGdelt } from '../../../test/helpers/fake-gdelt.ts';
import { createProviderTransport } from '../../providers/http.ts';
import { servicesFromEnv, type Services } from '../../providers/index.ts';
import { createGdeltNews } from '../../providers/news.ts';
import { createPageFetch } from '../../providers/page-fetch.ts';
import { buildSanctionsIndex, type SanctionsEntry } from '../screening/sanctions.ts';
import { screenSubject, type SanctionsLookup } from './analyse.ts';
import { adverseMediaResult } from './result.ts';
import type { Subject } from './subject.ts';

const subject: Subject = { name: 'John Smith', aliases: [], dob: '1971-05-14', country: 'AU', employer: 'Ridgeline Civil Pty Ltd', role: 'Managing Director', source: 'request' };

const listed = (fields: Partial<SanctionsEntry> & Pick<SanctionsEntry, 'entry_id' | 'name'>): SanctionsEntry => ({
  source: 'au_dfat_sanctions', list_name: 'DFAT Consolidated List', entity_type: 'person', aliases: [], weak_aliases: [], dates_of_birth: [], nationalities: [], countries: [], programmes: [], ...fields,
});
const lists = [{ source: 'au_dfat_sanctions', list_name: 'DFAT Consolidated List', entries: 2, as_of: '2026-11-20' }];
const sanctionsWith = (entries: SanctionsEntry[]): SanctionsLookup => ({ ok: true, index: buildSanctionsIndex(entries, lists) });
const unrelatedListing = listed({ entry_id: '1', name: 'Bosco Ntaganda', dates_of_birth: ['1973'] });

describe('adverse-media screening against a fake GDELT and fake news pages', () => {
  let gdelt: FakeGdelt;
  let pages: Server;
  let port: number;
  const article = (path: string) => `http://news.example:${port}${path}`;

  before(async () => {
    pages = createServer((req, res) => {
      const body: Record<string, string> = {
        '/charged': '<html><head><title>Contractor charged</title></head><body><p>The managing director of Ridgeline Civil Pty Ltd, John Smith, 55, was charged on Tuesday with obtaining a financial advantage by deception.</p><p>Police allege Smith submitted false invoices.</p></body></html>',
        '/texas': '<html><body><p>A Houston man, John Smith, 34, was sentenced to life in prison on Friday for murder.</p></body></html>',
      };
      const page = body[req.url ?? ''];
      if (page === undefined) return void res.writeHead(404).end('not here');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    port = (pages.address() as AddressInfo).port;
    gdelt = await startFakeGdelt({
      articles: {
        'John Smith': [
          { url: article('/charged'), title: 'Contractor charged over invoices', seendate: '20261002T041500Z', domain: 'news.example' },
          { url: article('/texas'), title: 'Texas man sentenced for 2019 killing', seendate: '20260919T010000Z', domain: 'news.example' },
          { url: article('/gone'), title: 'Sydney contractor accused of laundering cash', seendate: '20260901T010000Z', domain: 'news.example' },
        ],
      },
      failing: ['Broken Person'],
    });
  });
  after(async () => {
    await gdelt.close();
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  });

  const services = (): Services => {
    const transport = createProviderTransport({ userAgent: 'test', minIntervalMs: 0, timeoutMs: 2_000 });
    const fetcher = createSafeFetcher({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], testOnlyPermittedAddresses: ['127.0.0.1'], timeoutMs: 2_000 });
    // The other providers as on a server with none configured; this checker asks only for pages and news.
    return { ...servicesFromEnv({}, fetcher), pages: createPageFetch({ fetcher, transport }), news: createGdeltNews({ transport, baseUrl: gdelt.url, intervalMs: 0 }) };
  };

  it('reads each article page, keeps the subject\'s article, sets aside the namesake, judges an unreadable page on its title, and screens the lists', async () => {
    const sanctions = sanctionsWith([unrelatedListing, listed({ entry_id: '2', name: 'SMITH, John', dates_of_birth: ['1971-05-14'], countries: ['Australia'] })]);
    const { result, counts } = await screenSubject(subject, services(), sanctions);
    adverseMediaResult.parse(result);
    assert.equal(counts, true);
    assert.deepEqual(result.subject, { name: 'John Smith', source: 'request', country: 'AU' });
    assert.equal(result.sanctions.strong_matches, 1);
    assert.deepEqual(result.sanctions.candidates[0]?.corroboration, ['date_of_birth', 'country']);
    assert.deepEqual(
      result.adverse_media.hits.map((hit) => [hit.url, hit.match, hit.category, hit.severity]),
      [[article('/charged'), 'name_and_details', 'fraud', 'high'], [article('/gone'), 'search_only', 'money_laundering', 'medium']],
    );
    assert.equal(result.adverse_media.hits[0]!.evidence, 'The managing director of Ridgeline Civil Pty Ltd, John Smith, 55, was charged on Tuesday with obtaining a financial advantage by deception.');
    assert.deepEqual(result.adverse_media.excluded, [{ url: article('/texas'), title: 'Texas man sentenced for 2019 killing', reason: "The article gives John Smith's age as 34; the subject was about 55 then; the article connects John Smith with Houston (US), outside the subject's country AU." }]);
    assert.deepEqual([result.adverse_media.matched_hits, result.adverse_media.possible_hits, result.adverse_media.excluded_same_name], [1, 1, 1]);
    assert.deepEqual(result.adverse_media.categories, { money_laundering: 1, fraud: 1 });
    assert.equal(result.risk_flag, 'high');
    assert.equal(result.headline, 'John Smith: 1 strong sanctions match; 2 adverse news articles (1 matched on details, 1 possible). 1 article about another person of the same name was set aside.');
    assert.match(result.limitations, /^Lists of politically exposed persons \(PEPs\) are not screened\./);
    assert.match(result.limitations, /Sanctions screened against DFAT Consolidated List \(as of 2026-11-20\)/);
    assert.match(result.limitations, /News: GDELT DOC 2\.0 answered with 3 articles .*; 2 of the first 3 article pages could be read/);
  });

  it('with no sanctions listing and no news, says none found only because both sources answered', async () => {
    const { result, counts } = await screenSubject({ ...subject, name: 'Quiet Person' }, services(), sanctionsWith([unrelatedListing]));
    assert.equal(result.risk_flag, 'none_found');
    assert.equal(counts, true);
    assert.equal(result.headline, 'No sanctions listing and no adverse news found for Quiet Person in the sources that answered.');
  });

  it('a news outage and no release make the flag incomplete, say so, and do not count', async () => {
    const { result, counts } = await screenSubject({ ...subject, name: 'Broken Person' }, services(), { ok: false, detail: 'No release is loaded yet.' });
    adverseMediaResult.parse(result);
    assert.equal(counts, false);
    assert.equal(result.risk_flag, 'incomplete');
    assert.equal(result.adverse_media.hits.length, 0);
    assert.match(result.limitations, /Sanctions lists were not screened: No release is loaded yet\./);
    assert.match(result.limitations, /News was not searched \(unreachable now\): 127\.0\.0\.1:\d+ answered HTTP 503; try again later\./);
  });

  it('a name-only sanctions hit is possible and flags review, never high', async () => {
    const { result } = await screenSubject({ ...subject, name: 'Bosco Ntaganda', dob: null, country: null }, services(), sanctionsWith([unrelatedListing]));
    assert.deepEqual([result.sanctions.strong_matches, result.sanctions.possible_matches, result.risk_flag], [0, 1, 'review']);
  });
});
