import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import source, { mapQTender, statedTiming } from './au_qld_qtenders.ts';
import type { CrawlRequest, Fetched } from './_contract/define-source.ts';
import type { PlanRecord, TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const SEARCH_URL = 'https://qtenders.hpw.qld.gov.au/api/search/tenders';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];
let plans: PlanRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
  plans = crawl.records.filter((record): record is PlanRecord => record.record_type === 'plan');
});

function tender(reference: string): TenderRecord {
  const found = tenders.find((record) => record.reference === reference);
  assert.ok(found, `no tender ${reference}`);
  return found;
}

function plan(planId: string): PlanRecord {
  const found = plans.find((record) => record.plan_id === planId);
  assert.ok(found, `no plan ${planId}`);
  return found;
}

describe('au_qld_qtenders on its fixtures', () => {
  test('asks for open tenders 25 at a time, newest first, with the body the portal sends', () => {
    const [start] = source.start({ url: (path) => `https://fixture.test${path}`, publicUrl: (url) => url, now: new Date('2026-09-25T01:00:00Z'), lastSuccessAt: null });
    assert.equal(start?.method, 'POST');
    assert.equal(start?.headers?.['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(start?.payload ?? ''), {
      keywords: '',
      agencyIds: [],
      categoryIds: [],
      locationIds: [],
      productServiceIds: [],
      tenderStatusIds: ['1'],
      pageNumber: 1,
      pageSize: 25,
      sortBy: 'Opens',
    });
  });

  test('follows hasNextPage to page 2 and stops there; nothing is invalid', () => {
    assert.equal(crawl.failed, false);
    assert.deepEqual(
      crawl.requests.map((request) => [request.method, request.path, request.status]),
      [
        ['GET', '/robots.txt', 404],
        ['POST', '/api/search/tenders', 200],
        ['POST', '/api/search/tenders', 200],
      ],
    );
    assert.deepEqual(crawl.invalid, []);
    assert.deepEqual(crawl.warnings, []);
    assert.equal(tenders.length, 5);
    assert.equal(plans.length, 3);
  });

  test('the real Forward Procurement Notice is a plan only: it requires no response, and "in the coming weeks" gives no window', () => {
    assert.deepEqual(plan('VP525791'), {
      record_type: 'plan',
      plan_id: 'VP525791',
      title: 'The Wave Stage 3 (Metro) - Fleet, Operations & Maintenance Package',
      buyer: 'Department of Transport and Main Roads-North Coast',
      jurisdiction: 'AU-QLD',
      tier: 'state',
      description:
        'This Forward Procurement Notice (FPN) is issued by the Department of Transport and Main Roads, on behalf of the Chief Executive (TMR) to publicly notify the market that TMR intends to commence an Invitation to Offer process for the Fleet, Operations and Maintenance (FOM) Package of The Wave Stage 3 (Metro) in the coming weeks. This FPN provides prospective participants with preliminary information to assist in preparing for the proposed FOM Procurement Process. It does not constitute a formal market approach and does not obligate TMR to proceed with any procurement process associated with the FOM Package or The Wave Stage 3 (Metro). Please refer to the attached Forward Procurement Notice document for further information. All queries are to be addressed to TransactionNCRMajors@tmr.qld.gov.au. Any queries raised via VendorPanel will not be answered. A response to this Forward Procurement Notice is NOT required.',
      category: null,
      category_name:
        'Business & Administrative Services; Construction & Operation; Engineering & Research & Technical Based Services; Fleet Servicing & Accessories; Railway, Tramway and Track; Real Estate & Property Services; Transportation, Freight & Logistics; Utilities; Vehicles',
      expected_period_text: 'in the coming weeks',
      window_start: null,
      window_end: null,
      value_text: null,
      status: 'Forward Procurement Notice',
      released: false,
      withdrawn: false,
      published_date: '2026-09-25', // opens 2026-09-24T23:40:00 UTC is 09:40 on the 25th in Brisbane
      url: 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=28d4259c76644665a7c9fbb08d6b185as525791',
    });
    assert.equal(tenders.find((record) => record.reference === 'NCR2627 022_FPN'), undefined);
  });

  test('the real UniSQ tender maps exactly: UTC without offset, Brisbane dates, university tier, joined categories', () => {
    assert.deepEqual(tender('UniSQ2026116242'), {
      record_type: 'tender',
      kind: 'tender',
      title: 'UniSQ Servicing of Electrical, Mechanical and Electro-Mechanical Infrastructure',
      buyer: 'University of Southern Queensland',
      reference: 'UniSQ2026116242',
      jurisdiction: 'AU-QLD',
      tier: 'university',
      summary:
        'The University requires the services of a contractor to support maintenance of its electrical, mechanical, and electro-mechanical infrastructure at the Toowoomba, Ipswich, and Springfield campuses, as well as two smaller satellite sites. The works include planned predictive and reactive maintenance, as well as corrective and reactive maintenance.',
      category: null,
      category_name:
        'Building Trade & Repairs & Maintenance Services; Construction & Operation; Electrical Systems, Lighting, Equipment & Services; Mechanical Plant & Equipment & Services',
      notice_type: null,
      published_date: '2026-09-24',
      closing_date: '2026-10-22',
      closing_at: '2026-10-22T04:00:00.000Z', // 14:00 in Brisbane
      value_text: null,
      url: 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=99329f4df5b4499dabc6b78db3d40bd2s527073',
      listing_url: 'https://qtenders.hpw.qld.gov.au/',
    });
    assert.equal(tender('25DTS018B-NUTR(ITO16)').tier, 'state');
  });

  test('a notice inviting registrations of interest is both a plan with its stated month and an open tender', () => {
    const notice = plan('VP526980');
    assert.deepEqual(
      [notice.title, notice.expected_period_text, notice.window_start, notice.window_end, notice.published_date],
      ['Statewide Bridge Inspection and Load Rating Services', 'November 2026', '2026-11-01', '2026-11-30', '2026-09-23'],
    );
    const asTender = tender('TMR-SW-2627-004_FPN');
    assert.deepEqual(
      [asTender.notice_type, asTender.buyer, asTender.closing_date, asTender.closing_at, asTender.url],
      ['Forward Procurement Notice', 'Department of Transport and Main Roads', '2026-10-09', '2026-10-09T07:00:00.000Z', notice.url],
    );
  });

  test('a notice stating a financial-year quarter reads that quarter; it requires no response, so it is no tender', () => {
    const notice = plan('VP525102');
    assert.deepEqual(
      [notice.expected_period_text, notice.window_start, notice.window_end, notice.tier],
      ['Q3 of the 2026-27 financial year', '2027-01-01', '2027-03-31', 'state'],
    );
    assert.equal(tenders.find((record) => record.reference === 'CDSB-FPN-2026-11'), undefined);
  });

  test('an "Unspecified" department falls back to the business name; no buyer reference falls back to the VendorPanel one', () => {
    const trolleys = tender('VP526712');
    assert.deepEqual([trolleys.buyer, trolleys.tier], ['Metro North Hospital and Health Service', 'health']);
    // Closes at 16:00 in Brisbane on the capture day itself: still open when the clock reads 11:00 there.
    assert.deepEqual([trolleys.closing_date, trolleys.closing_at], ['2026-09-25', '2026-09-25T06:00:00.000Z']);
    assert.ok(Date.parse(trolleys.closing_at ?? '') > crawl.now.getTime());
  });

  test('no closing date; entities, non-breaking spaces and literal \\n cleaned; the money string stays in the summary', () => {
    const standing = tender('HPW-PQC-2026-07');
    assert.deepEqual([standing.closing_date, standing.closing_at, standing.value_text], [null, null, null]);
    assert.equal(standing.title, 'Pre-qualified Supplier Arrangement – Traffic Management Services (Standing Offer)');
    assert.equal(
      standing.summary,
      'Applications are accepted on an ongoing basis – there is no closing date. Estimated arrangement value: $2,350,000.00 (inc GST) over the initial term. Works include traffic control & management on state\u2011controlled roads.',
    );
    assert.equal(standing.published_date, '2026-09-02'); // opens 2026-09-01T22:30:00 UTC
  });

  test('every record links to its VendorPanel notice, never to the loopback fixture server', () => {
    for (const record of crawl.records) {
      assert.ok('url' in record && record.url.startsWith('https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id='), JSON.stringify(record));
      assert.doesNotMatch(JSON.stringify(record), /127\.0\.0\.1/);
    }
  });

  test('a failing API fails the source with a one-line diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.deepEqual(failed.records, []);
    assert.equal(failed.diagnosis, `HTTP 500 from POST ${SEARCH_URL} after 1 attempt`);
  });
});

/** A search page handed straight to the handler, recording what it emits and enqueues. */
async function runSearch(body: unknown) {
  const emitted: unknown[] = [];
  const enqueued: CrawlRequest[] = [];
  const fetched = {
    request: { url: SEARCH_URL, label: 'SEARCH', userData: {} },
    ctx: { url: (path: string) => `https://fixture.test${path}`, publicUrl: (url: string) => url, now: new Date(), lastSuccessAt: null },
    json: async () => body,
    emit: (record: unknown) => emitted.push(record),
    invalid: (problem: string) => emitted.push({ problem }),
    enqueue: async (requests: CrawlRequest | CrawlRequest[]) => void enqueued.push(...[requests].flat()),
  } as unknown as Fetched;
  await source.routes.SEARCH!(fetched);
  return { emitted, enqueued };
}

describe('QTenders search handler and mapping', () => {
  test('a reply that is not a search page fails the request with a readable reason', async () => {
    await assert.rejects(runSearch({ message: 'Just a moment...' }), /^Error: not a QTenders search page: tenders: /);
  });

  test('an empty page ends paging even when it claims a next page; an unreadable tender is counted invalid', async () => {
    const empty = await runSearch({ tenders: [], pageNumber: 3, hasNextPage: true });
    assert.deepEqual(empty.enqueued, []);
    const broken = await runSearch({ tenders: [{ title: 'no id' }], pageNumber: 1, hasNextPage: true });
    assert.match(JSON.stringify(broken.emitted), /unreadable QTenders tender: id: /);
    assert.equal(JSON.parse(broken.enqueued[0]?.payload ?? '{}').pageNumber, 2);
  });

  test('a Forward Procurement Notice the source no longer lists as open is a plan only', () => {
    const records = mapQTender({
      id: 1,
      title: 'FPN: Fleet telematics',
      departmentName: 'Department of Transport and Main Roads',
      vpReference: 'VP1',
      tenderStatus: 'Closed',
      isOpen: false,
      details: '<p>Suppliers may register interest.</p>',
      tenderPreviewUrl: 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=x',
    });
    assert.deepEqual(records.map((record) => [record.record_type, record.title]), [['plan', 'Fleet telematics']]);
  });

  test('stated timing is read only from sentences about the market approach, and only when it names a period', () => {
    assert.deepEqual(statedTiming('The request for tender is planned for release in Q2 2027.'), { text: 'Q2 2027', window: { start: '2027-04-01', end: '2027-06-30' } });
    assert.deepEqual(statedTiming('Offers will be invited through an open tender in the fourth quarter of 2026-27.'), {
      text: 'fourth quarter of 2026-27',
      window: { start: '2027-04-01', end: '2027-06-30' },
    });
    assert.deepEqual(statedTiming('TMR will go to market during the 2027-28 financial year.'), {
      text: '2027-28 financial year',
      window: { start: '2027-07-01', end: '2028-06-30' },
    });
    assert.deepEqual(statedTiming('The tender is expected to be released in February 2027.'), { text: 'February 2027', window: { start: '2027-02-01', end: '2027-02-28' } });
    assert.deepEqual(statedTiming('An approach to market is expected in late 2027.'), { text: 'late 2027', window: null });
    assert.equal(statedTiming('The proposed contract term is from November 2026 to 25 February 2029.'), null);
    assert.equal(statedTiming(null), null);
  });
});
