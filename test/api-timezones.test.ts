import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow, type TenderSeed } from './helpers/seed-release.ts';

/**
 * `open` and `closing_within_days` are judged on the buyer's own calendar day. Each case puts the clock
 * on a local midnight (or a second before it) so the same closing date is open in one zone and closed in
 * another, including the days the clocks change: Sydney 5 Apr 2026 (DST ends, a 25-hour day) and
 * 4 Oct 2026 (DST starts, a 23-hour day), Adelaide from 4 Oct 2026, Auckland 27 Sep 2026 (DST starts).
 */

const places = {
  perth: 'AU-WA',
  adelaide: 'AU-SA',
  darwin: 'AU-NT',
  brisbane: 'AU-QLD',
  sydney: 'AU-NSW',
  australia: 'AU', // the country alone is judged on Sydney's day
  auckland: 'NZ',
} as const;
type Place = keyof typeof places;

const closings: [Place, string][] = [
  ['perth', '2026-06-15'], ['sydney', '2026-06-15'], ['perth', '2026-06-16'], ['sydney', '2026-06-16'],
  ['adelaide', '2026-06-15'], ['darwin', '2026-06-15'],
  ['adelaide', '2026-10-05'], ['darwin', '2026-10-05'],
  ['sydney', '2026-10-04'], ['brisbane', '2026-10-04'], ['australia', '2026-10-04'], ['sydney', '2026-10-05'],
  ['sydney', '2026-04-04'], ['brisbane', '2026-04-04'], ['sydney', '2026-04-05'],
  ['auckland', '2026-09-27'], ['sydney', '2026-09-27'], ['auckland', '2026-09-28'],
];

const rows = new Map<string, TenderSeed>(
  closings.map(([place, date]) => [
    `${place} ${date}`,
    tenderRow({
      title: `Closing ${date} in ${place}`,
      buyer: `Agency of ${place}`,
      reference: `${place}-${date}`,
      jurisdiction: places[place],
      closing_date: date,
    }),
  ]),
);

let clock = new Date('2026-06-01T00:00:00.000Z');
let dataDir: string;
let store: ReleaseStore;
let app: Awaited<ReturnType<typeof createApp>>;

async function isOpen(at: string, tender: string): Promise<boolean> {
  clock = new Date(at);
  const row = rows.get(tender);
  assert.ok(row, `no seeded tender "${tender}"`);
  const response = await app.request(`/v1/tenders/${String(row.tender_key)}`);
  assert.equal(response.status, 200);
  return ((await response.json()) as { open: boolean }).open;
}

/** Which seeded tenders a search at `at` returns, by "place date". */
async function found(at: string, query: string): Promise<string[]> {
  clock = new Date(at);
  const response = await app.request(`/v1/tenders?${query}&limit=100`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { results: { page_key: string }[] };
  const names = new Map([...rows].map(([name, row]) => [String(row.tender_key), name]));
  return body.results.map((result) => names.get(result.page_key)!).sort();
}

describe('open and closing_within_days in the buyer\'s time zone', () => {
  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [...rows.values()], sources: [sourceRow()] });
    store = await ReleaseStore.open({ dataDir, now: () => clock, log: () => {} });
    app = await createApp({ store, burst: false });
  });

  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('Perth: a date stays open until Perth midnight, two hours after Sydney closed it', async () => {
    // 15:59:59.999Z is 23:59:59 on 15 June in Perth and already 01:59 on 16 June in Sydney.
    assert.equal(await isOpen('2026-06-15T15:59:59.999Z', 'perth 2026-06-15'), true);
    assert.equal(await isOpen('2026-06-15T15:59:59.999Z', 'sydney 2026-06-15'), false);
    assert.equal(await isOpen('2026-06-15T16:00:00.000Z', 'perth 2026-06-15'), false);
    assert.equal(await isOpen('2026-06-15T13:59:59.999Z', 'sydney 2026-06-15'), true);
    assert.equal(await isOpen('2026-06-15T14:00:00.000Z', 'sydney 2026-06-15'), false);
  });

  it('Perth and Sydney: closing_within_days=0 is today in each buyer\'s day', async () => {
    // 15:00Z: 23:00 on 15 June in Perth, 01:00 on 16 June in Sydney.
    assert.deepEqual(await found('2026-06-15T15:00:00.000Z', 'closing_within_days=0&jurisdiction=AU'), ['perth 2026-06-15', 'sydney 2026-06-16']);
    assert.deepEqual(await found('2026-06-15T15:00:00.000Z', 'closing_within_days=1&jurisdiction=AU-WA'), ['perth 2026-06-15', 'perth 2026-06-16']);
    assert.deepEqual(await found('2026-06-15T16:00:00.000Z', 'closing_within_days=0&jurisdiction=AU-WA'), ['perth 2026-06-16']);
  });

  it('Adelaide and Darwin share a winter midnight (UTC+9:30)', async () => {
    for (const place of ['adelaide', 'darwin']) {
      assert.equal(await isOpen('2026-06-15T14:29:59.999Z', `${place} 2026-06-15`), true, place);
      assert.equal(await isOpen('2026-06-15T14:30:00.000Z', `${place} 2026-06-15`), false, place);
    }
  });

  it('Adelaide moves to daylight time on 4 Oct 2026 and Darwin does not', async () => {
    // 13:30Z on 5 Oct: midnight starting 6 Oct in Adelaide (UTC+10:30), 23:00 on 5 Oct in Darwin (UTC+9:30).
    assert.equal(await isOpen('2026-10-05T13:29:59.999Z', 'adelaide 2026-10-05'), true);
    assert.equal(await isOpen('2026-10-05T13:30:00.000Z', 'adelaide 2026-10-05'), false);
    assert.equal(await isOpen('2026-10-05T13:30:00.000Z', 'darwin 2026-10-05'), true);
    assert.equal(await isOpen('2026-10-05T14:30:00.000Z', 'darwin 2026-10-05'), false);
    assert.deepEqual(await found('2026-10-05T13:30:00.000Z', 'closing_within_days=0&jurisdiction=AU-NT'), ['darwin 2026-10-05']);
    assert.deepEqual(await found('2026-10-05T13:30:00.000Z', 'closing_within_days=0&jurisdiction=AU-SA'), []);
    assert.deepEqual(await found('2026-10-05T13:29:59.999Z', 'closing_within_days=0&jurisdiction=AU-SA'), ['adelaide 2026-10-05']);
  });

  it('Sydney, DST start (4 Oct 2026, a 23-hour day): Sydney closes an hour before Brisbane', async () => {
    // 13:00Z on 4 Oct: midnight starting 5 Oct in Sydney (UTC+11 since 02:00), 23:00 on 4 Oct in Brisbane (UTC+10).
    assert.equal(await isOpen('2026-10-04T12:59:59.999Z', 'sydney 2026-10-04'), true);
    assert.equal(await isOpen('2026-10-04T13:00:00.000Z', 'sydney 2026-10-04'), false);
    assert.equal(await isOpen('2026-10-04T13:00:00.000Z', 'australia 2026-10-04'), false);
    assert.equal(await isOpen('2026-10-04T13:00:00.000Z', 'brisbane 2026-10-04'), true);
    assert.deepEqual(await found('2026-10-04T13:00:00.000Z', 'closing_within_days=0'), ['brisbane 2026-10-04', 'sydney 2026-10-05']);
    assert.deepEqual(await found('2026-10-04T12:59:59.999Z', 'closing_within_days=0'), ['australia 2026-10-04', 'brisbane 2026-10-04', 'sydney 2026-10-04']);
  });

  it('Sydney, DST end (5 Apr 2026, a 25-hour day): 5 April lasts until 14:00Z', async () => {
    // 13:00Z on 4 Apr: midnight starting 5 Apr in Sydney (UTC+11 still), 23:00 on 4 Apr in Brisbane.
    assert.equal(await isOpen('2026-04-04T13:00:00.000Z', 'sydney 2026-04-04'), false);
    assert.equal(await isOpen('2026-04-04T13:00:00.000Z', 'brisbane 2026-04-04'), true);
    // 13:30Z on 5 Apr is 23:30 in Sydney (back on UTC+10 since 03:00): a fixed UTC+11 would call it 6 April.
    assert.equal(await isOpen('2026-04-05T13:30:00.000Z', 'sydney 2026-04-05'), true);
    assert.equal(await isOpen('2026-04-05T13:59:59.999Z', 'sydney 2026-04-05'), true);
    assert.equal(await isOpen('2026-04-05T14:00:00.000Z', 'sydney 2026-04-05'), false);
    assert.deepEqual(await found('2026-04-05T13:30:00.000Z', 'closing_within_days=0&jurisdiction=AU-NSW'), ['sydney 2026-04-05']);
  });

  it('Auckland, DST start (27 Sep 2026): Auckland closes the day while Sydney is at 21:00', async () => {
    // 11:00Z on 27 Sep: midnight starting 28 Sep in Auckland (UTC+13 since 02:00), 21:00 on 27 Sep in Sydney.
    assert.equal(await isOpen('2026-09-27T10:59:59.999Z', 'auckland 2026-09-27'), true);
    assert.equal(await isOpen('2026-09-27T11:00:00.000Z', 'auckland 2026-09-27'), false);
    assert.equal(await isOpen('2026-09-27T11:00:00.000Z', 'sydney 2026-09-27'), true);
    assert.deepEqual(await found('2026-09-27T11:00:00.000Z', 'closing_within_days=0&jurisdiction=NZ'), ['auckland 2026-09-28']);
    assert.deepEqual(await found('2026-09-27T10:59:59.999Z', 'closing_within_days=0&jurisdiction=NZ'), ['auckland 2026-09-27']);
    assert.deepEqual(await found('2026-09-27T11:00:00.000Z', 'closing_within_days=0&jurisdiction=AU-NSW'), ['sydney 2026-09-27']);
  });
});
