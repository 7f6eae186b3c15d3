import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import source, { ACT_REGISTER, mapRegisterRow } from './au_act_contracts_register.ts';
import { socrataPagePath, socrataPageRoute, socrataStart, type SocrataRow } from './_platforms/socrata.ts';
import type { CrawlRequest, Fetched } from './_contract/define-source.ts';
import { AwardRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.data.act.gov.au';
const ORDER = 'execution_date%20DESC%2C%20%3Aid';

/** The registered source asks for 1,000 rows a page; four walks the fixtures' two pages. */
const FOUR_A_PAGE = { ...ACT_REGISTER, pageSize: 4 };
const pagedByFour = { ...source, start: (ctx: Parameters<typeof source.start>[0]) => socrataStart(ctx, FOUR_A_PAGE), routes: { PAGE: socrataPageRoute(FOUR_A_PAGE) } };

let crawl: FixtureCrawl;
let awards: AwardRecord[];

before(async () => {
  crawl = await crawlOnFixtures(pagedByFour);
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
});

function releasesOf(contractId: string): AwardRecord[] {
  return awards.filter((award) => award.contract_id === contractId);
}

describe('au_act_contracts_register on its fixtures', () => {
  test('pages by $limit/$offset under a total $order until a short page', () => {
    assert.equal(crawl.failed, false);
    assert.deepEqual(
      crawl.requests.map((request) => [request.path, request.status]),
      [
        ['/robots.txt', 404],
        [`/resource/pfs5-8d64.json?$limit=4&$offset=0&$order=${ORDER}`, 200],
        [`/resource/pfs5-8d64.json?$limit=4&$offset=4&$order=${ORDER}`, 200],
        [`/resource/pfs5-8d64.json?$limit=4&$offset=8&$order=${ORDER}`, 200], // page 2 was full: SODA answers [] past the last row
      ],
    );
    assert.equal(awards.length, 8);
    assert.deepEqual(crawl.invalid, []);
    for (const award of awards) AwardRecord.parse(award);
  });

  test('the registered source asks for 1,000 rows and stops at the first page when it comes back short', async () => {
    const nightly = await crawlOnFixtures(source);
    assert.deepEqual(
      nightly.requests.map((request) => request.path),
      ['/robots.txt', `/resource/pfs5-8d64.json?$limit=1000&$offset=0&$order=${ORDER}`],
    );
    assert.equal(nightly.records.length, 4);
  });

  test('a row maps to an exact award: spaced ABN, plain decimal, floating timestamp on Canberra time, UNSPSC code', () => {
    const [award] = releasesOf('2026.44871');
    assert.deepEqual(award, {
      record_type: 'award',
      ocid: 'au_act_contracts_register:2026.44871',
      release_id: 'au_act_contracts_register:2026.44871:22ff8f222f0e51b0',
      release_date: '2026-09-17T14:00:00.000Z', // 2026-09-18 00:00 in Canberra (AEST, UTC+10)
      release_tag: 'contract',
      contract_id: '2026.44871',
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-ACT',
      buyer: 'Canberra Health Services',
      buyer_id: null,
      supplier: 'Capital Fitout Group Pty Ltd',
      supplier_abn: '51234368979',
      supplier_id: null,
      title: 'Canberra Hospital Clinical Services Building Level 4 Fit-out',
      description: 'Level 4 fit-out of the Clinica',
      value_amount: '1186437.50',
      value_currency: 'AUD',
      awarded_date: '2026-09-18',
      start_date: null,
      end_date: '2027-12-17',
      categories: ['72000000'],
      procurement_method: 'Open Tender',
      url: `${ORIGIN}/resource/pfs5-8d64.json?contract_number=2026.44871`,
    });
  });

  test('a variation is a new release of its contract at the varied amount; the original, in daylight time, stays', () => {
    assert.deepEqual(
      releasesOf('2025.39102').map((award) => [award.release_date, award.value_amount, award.end_date]),
      [
        ['2026-09-10T14:00:00.000Z', '362000.00', '2027-06-30'],
        ['2026-01-19T13:00:00.000Z', '310000.00', '2026-12-31'], // 2026-01-20 00:00 AEDT (UTC+11)
      ],
    );
    const [variation, original] = releasesOf('2025.39102');
    assert.equal(variation?.ocid, original?.ocid);
    assert.notEqual(variation?.release_id, original?.release_id);
  });

  test('absent fields, "N/A" and an ACN as the ABN, an amount without cents, a classification without a code', () => {
    const [burn] = releasesOf('2026.44209');
    assert.deepEqual(
      [burn?.supplier, burn?.supplier_abn, burn?.end_date, burn?.categories, burn?.title],
      ['Ngunnawal Country Land Management Aboriginal Corporation', null, null, [], 'Cultural burn planning – Namadgi National Park'],
    );
    const [modelling] = releasesOf('2026.43617');
    assert.deepEqual([modelling?.supplier_abn, modelling?.value_amount, modelling?.value_currency], [null, '215000', 'AUD']);
    const [audit] = releasesOf('M25/118');
    assert.deepEqual([audit?.supplier_abn, audit?.supplier_id, audit?.awarded_date], [null, 'AU-ACN-592404272', '2025-12-05']);
    assert.deepEqual(crawl.warnings, [
      `${ORIGIN}/resource/pfs5-8d64.json?$limit=4&$offset=0&$order=${ORDER}: contract 2026.43617: abn "N/A" is neither an ABN nor an ACN; recorded without one`,
    ]);
  });

  test('the real register row (M16/43) maps field by field', () => {
    const [audit] = releasesOf('M16/43');
    const { release_id: releaseId, ...rest } = audit!;
    assert.match(releaseId, /^au_act_contracts_register:M16\/43:[0-9a-f]{16}$/);
    assert.deepEqual(rest, {
      record_type: 'award',
      ocid: 'au_act_contracts_register:M16/43',
      release_date: '2016-06-19T14:00:00.000Z', // 2016-06-20 00:00 in Canberra (AEST)
      release_tag: 'contract',
      contract_id: 'M16/43',
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-ACT',
      buyer: 'ACT Audit Office',
      buyer_id: null,
      supplier: 'Axiom Associates',
      supplier_abn: '98121216662',
      supplier_id: null,
      title: 'Computer Information Systems Audit Services 2016',
      description: 'Computer Information Systems A', // the register cuts it at 30 characters
      value_amount: '101745.00',
      value_currency: 'AUD',
      awarded_date: '2016-06-20',
      start_date: null,
      end_date: '2016-09-30',
      categories: ['80000000'],
      procurement_method: 'select',
      url: `${ORIGIN}/resource/pfs5-8d64.json?contract_number=M16%2F43`,
    });
  });

  test('every award links to its rows in the live SODA API', () => {
    for (const award of awards) assert.equal(award.url, `${ORIGIN}/resource/pfs5-8d64.json?contract_number=${encodeURIComponent(award.contract_id)}`);
    assert.equal(releasesOf('M25/118')[0]?.url, `${ORIGIN}/resource/pfs5-8d64.json?contract_number=M25%2F118`);
  });

  test('a failing API fails the source with a one-line diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.deepEqual(failed.records, []);
    assert.equal(failed.diagnosis, `HTTP 500 from GET ${ORIGIN}/resource/pfs5-8d64.json?$limit=1000&$offset=0&$order=${ORDER} after 1 attempt`);
  });
});

/** One page handed straight to the Socrata handler, recording what it emits and enqueues. */
async function runPage(body: unknown, offset: number) {
  const emitted: unknown[] = [];
  const problems: string[] = [];
  const enqueued: CrawlRequest[] = [];
  const fetched = {
    request: { url: `https://fixture.test${socrataPagePath(FOUR_A_PAGE, offset)}`, label: 'PAGE', userData: { offset } },
    ctx: { url: (path: string) => `https://fixture.test${path}`, publicUrl: (url: string) => url, now: new Date('2026-09-25T01:00:00Z'), lastSuccessAt: null },
    json: async () => body,
    emit: (record: unknown) => emitted.push(record),
    invalid: (problem: string) => problems.push(problem),
    warn: () => {},
    enqueue: async (requests: CrawlRequest | CrawlRequest[]) => void enqueued.push(...[requests].flat()),
  } as unknown as Fetched;
  await socrataPageRoute(FOUR_A_PAGE)(fetched);
  return { emitted, problems, enqueued };
}

describe('Socrata family', () => {
  const row = (number: string): SocrataRow => ({ contract_number: number, contract_title: 'Works', directorate: 'Education Directorate', execution_date: '2026-02-01T00:00:00.000' });

  test('a full page asks for the next offset; a short page ends', async () => {
    const full = await runPage([row('1'), row('2'), row('3'), row('4')], 8);
    assert.deepEqual(full.enqueued.map((request) => request.url), [`https://fixture.test/resource/pfs5-8d64.json?$limit=4&$offset=12&$order=${ORDER}`]);
    assert.equal(full.emitted.length, 4);
    const short = await runPage([row('5')], 12);
    assert.deepEqual(short.enqueued, []);
  });

  test('a query error reply fails the request with Socrata\'s message; rows that are not objects are counted invalid', async () => {
    await assert.rejects(runPage({ code: 'query.soql.no-such-column', error: true, message: 'No such column: execution_dat' }, 0), {
      message: 'not a Socrata row array: query.soql.no-such-column: No such column: execution_dat',
    });
    const mixed = await runPage([row('1'), 'oops', null], 0);
    assert.deepEqual(mixed.problems, ['2 row(s) on this page are not JSON objects']);
    assert.equal(mixed.emitted.length, 1);
  });

  test('a row without a contract number is unreadable; a changed field is a new release of the same contract', () => {
    const now = new Date('2026-09-25T01:00:00Z');
    const { record, unreadable } = mapRegisterRow({ contract_title: 'Works', contractor_name: 'Acme' }, now);
    assert.equal(record, null);
    assert.equal(unreadable, 'register row without a contract_number: Works, Acme');
    const first = mapRegisterRow({ ...row('9'), contract_amount: '10.00' }, now).record;
    const reordered = mapRegisterRow({ contract_amount: '10.00', ...row('9') }, now).record;
    const varied = mapRegisterRow({ ...row('9'), contract_amount: '12.00' }, now).record;
    assert.equal(reordered?.release_id, first?.release_id);
    assert.equal(varied?.ocid, first?.ocid);
    assert.notEqual(varied?.release_id, first?.release_id);
  });

  test('an amount that is not a decimal is dropped with a warning; no execution date means the run clock', () => {
    const { record, warnings } = mapRegisterRow({ contract_number: '7', contract_title: 'Works', directorate: 'ACT Audit Office', contract_amount: '$1,200' }, new Date('2026-09-25T01:00:00Z'));
    assert.deepEqual([record?.value_amount, record?.value_currency, record?.release_date, record?.awarded_date], [null, null, '2026-09-25T01:00:00.000Z', null]);
    assert.deepEqual(warnings, ['contract 7: amount "$1,200" is not a decimal; recorded without one']);
  });
});
