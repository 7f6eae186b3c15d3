import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpValidator } from '../data/build.ts';
import { openStore } from '../data/store.ts';
import { crawlSource } from '../pipeline/crawl.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { FixtureServer } from '../pipeline/fixture-server.ts';
import { runNightly, type NightlyOptions } from '../pipeline/nightly.ts';
import { HostGate } from '../lib/host-gate.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { StagingWriter, stagingPath } from '../pipeline/staging.ts';
import abnBulkExtract from '../sources/au_abn_bulk_extract.ts';
import asicCompanies from '../sources/au_asic_companies.ts';
import { DEFAULT_POLITENESS, defineSource, type SourceDefinition } from '../sources/_contract/define-source.ts';
import { tempDir } from './helpers/temp-dir.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const ASIC_FILE = '/data/dataset/7b8656f9-606d-4337-af29-66b89b2eeefb/resource/5c3914e6-413e-4a2c-b890-bf8efe3eabf2/download/company_202609.csv';
const ABN_PART_1 = '/data/dataset/5bd7fcab-e315-42cb-8daf-50b7efc2027e/resource/0ae4d427-6fa8-4d40-8e76-c6909b5a071b/download/public_split_1_10.zip';
const ABN_PART_2 = '/data/dataset/5bd7fcab-e315-42cb-8daf-50b7efc2027e/resource/635fcb95-7864-4509-9fa7-a62a6e32b62d/download/public_split_11_20.zip';

/** One crawl of a source over the fixture server, with the validators a previous release would hand it. */
async function crawlOnce(source: SourceDefinition, options: { night?: string; validators?: HttpValidator[]; root?: string; workDir?: string; sink?: StagingWriter; maxRetries?: number } = {}) {
  const server = new FixtureServer({ night: options.night, root: options.root });
  await server.start();
  try {
    const result = await crawlSource({
      source, base: server.baseFor(source.id), now: new Date('2026-09-25T01:00:00Z'), lastSuccessAt: null, gate: new HostGate({ scale: 0 }),
      politeness: { maxRetries: options.maxRetries ?? 0, timeoutSecs: 5 }, offline: true, validators: options.validators, workDir: options.workDir, sink: options.sink,
    });
    return { result, requests: server.requests };
  } finally {
    await server.stop();
  }
}

async function query<T>(releaseDir: string, sql: string): Promise<T[]> {
  const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    return await store.all<T>(sql);
  } finally {
    store.close();
  }
}

test('the second night sends the remembered ETag and Last-Modified, gets 304 and does not download the file again', async () => {
  const first = await crawlOnce(asicCompanies);
  assert.equal(first.result.recordCount, 12);
  const second = await crawlOnce(asicCompanies, { validators: first.result.validators });
  const download = second.requests.find((request) => request.path === ASIC_FILE);
  assert.deepEqual(download, {
    source: 'au_asic_companies', method: 'GET', path: ASIC_FILE, status: 304,
    conditional: { ifNoneMatch: '"5c3914e6-20260922"', ifModifiedSince: 'Tue, 22 Sep 2026 03:00:00 GMT' },
  });
  assert.equal(second.requests.filter((request) => request.path === ASIC_FILE).length, 1, 'asked once, answered 304, never fetched whole');
  assert.equal(second.result.failed, false);
  assert.equal(second.result.recordCount, 0);
  assert.equal(second.result.notModifiedSince?.toISOString(), '2026-09-22T03:00:00.000Z');
  assert.deepEqual(second.result.validators, first.result.validators, 'the validators still describe the rows held');
});

test('a register over four nights: 304 carries rows forward fresh, a failure carries them stale, a new file replaces them', async () => {
  const dataDir = await tempDir('registers-');
  const run = (extra: Partial<NightlyOptions>) => runNightly({ dataDir, fixtures: true, registry: [asicCompanies], progress: quiet, politeness: { maxRetries: 0, timeoutSecs: 5 }, ...extra });
  const companies = (releaseDir: string) => query<{ acn: string; status: string; stale: boolean; first_seen: string }>(releaseDir,
    `SELECT acn, status, stale, strftime(first_seen, '%Y-%m-%d') AS first_seen FROM companies ORDER BY acn`);
  const validators = (releaseDir: string) => query<{ etag: string; fetched_at: string }>(releaseDir,
    `SELECT etag, strftime(fetched_at, '%Y-%m-%d') AS fetched_at FROM http_validators`);

  const night1 = await run({});
  assert.equal((await companies(night1.releaseDir)).length, 11);

  const night2 = await run({ now: new Date('2026-09-26T01:00:00Z') });
  const [notModified] = night2.manifest.sources;
  assert.deepEqual([notModified?.status, notModified?.why, notModified?.records, notModified?.new], ['ok', 'not modified since 2026-09-22 03:00 UTC', 0, 0]);
  const carried = await companies(night2.releaseDir);
  assert.equal(carried.length, 11);
  assert.ok(carried.every((c) => !c.stale && c.first_seen === '2026-09-25'), 'carried forward as they are, not stale');
  assert.deepEqual(await validators(night2.releaseDir), [{ etag: '"5c3914e6-20260922"', fetched_at: '2026-09-25' }]);

  const night3 = await run({ now: new Date('2026-09-27T01:00:00Z'), faults: { au_asic_companies: 'http500' } });
  const [failed] = night3.manifest.sources;
  assert.equal(failed?.status, 'stale');
  assert.equal(failed?.why, 'HTTP 500 from GET https://data.gov.au/data/dataset/7b8656f9-606d-4337-af29-66b89b2eeefb after 1 attempt; serving rows from the run of 2026-09-26 01:00 UTC');
  const stale = await companies(night3.releaseDir);
  assert.equal(stale.length, 11);
  assert.ok(stale.every((c) => c.stale), 'every row is served stale');
  assert.deepEqual(await validators(night3.releaseDir), [{ etag: '"5c3914e6-20260922"', fetched_at: '2026-09-25' }], 'a failed night keeps the validators of the rows it serves');
  const [registry] = await query<{ reference_count: number; last_success_at: string }>(night3.releaseDir, `SELECT reference_count, strftime(last_success_at, '%Y-%m-%d') AS last_success_at FROM sources`);
  assert.deepEqual(registry, { reference_count: 11, last_success_at: '2026-09-26' });

  // ASIC publishes a new weekly file: DARLING DOWNS deregistered, EYRE PENINSULA gone, JACARANDA registered.
  const night4 = await run({ night: 'night-2', now: new Date('2026-09-28T01:00:00Z') });
  const [replaced] = night4.manifest.sources;
  assert.deepEqual([replaced?.status, replaced?.why, replaced?.records, replaced?.new, replaced?.updated, replaced?.closed], ['ok', null, 12, 1, 1, 1]);
  const fresh = await companies(night4.releaseDir);
  assert.deepEqual(fresh.map((c) => c.acn), ['000000019', '000000028', '003124507', '004085616', '142887312', '154039675', '165529840', '608139724', '612983472', '622451085', '635412092']);
  assert.ok(fresh.every((c) => !c.stale));
  assert.deepEqual(fresh.find((c) => c.acn === '622451085'), { acn: '622451085', status: 'DRGD', stale: false, first_seen: '2026-09-25' });
  assert.equal(fresh.find((c) => c.acn === '165529840')?.first_seen, '2026-09-28');
  assert.ok(!fresh.some((c) => c.acn === '099553107'), 'a company that left the file leaves the register: a snapshot is replaced, not merged');
  assert.deepEqual(await validators(night4.releaseDir), [{ etag: '"5c3914e6-20260929"', fetched_at: '2026-09-28' }]);
  const [asOf] = await query<{ as_of: string }>(night4.releaseDir, `SELECT DISTINCT as_of::VARCHAR AS as_of FROM companies`);
  assert.equal(asOf?.as_of, '2026-09-26', 'Last-Modified Fri, 25 Sep 2026 20:00 GMT is the 26th in Canberra');
});

test('a download that keeps failing is retried, then fails the snapshot with a diagnosis naming the file', async () => {
  const root = await tempDir('asic-503-');
  await cp(join(FIXTURES_ROOT, 'au_asic_companies'), join(root, 'au_asic_companies'), { recursive: true });
  const metaPath = join(root, 'au_asic_companies', '_meta.json');
  const meta = JSON.parse(await readFile(metaPath, 'utf8')) as { files: { url: string; status?: number }[] };
  for (const file of meta.files) if (file.url.endsWith('company_202609.csv')) file.status = 503;
  await writeFile(metaPath, JSON.stringify(meta));
  const { result, requests } = await crawlOnce(asicCompanies, { root, maxRetries: 1 });
  assert.deepEqual(requests.filter((request) => request.path === ASIC_FILE).map((request) => request.status), [503, 503]);
  assert.equal(result.failed, true);
  assert.equal(result.diagnosis, `HTTP 503 from GET https://data.gov.au${ASIC_FILE} after 2 attempts; a snapshot is replaced only when every file is read`);
  assert.deepEqual(result.validators, []);
});

test('when one file of a snapshot changed and the other answered 304, the unchanged one is fetched again whole', async () => {
  const first = await crawlOnce(abnBulkExtract);
  assert.equal(first.result.recordCount, 20);
  const second = await crawlOnce(abnBulkExtract, { night: 'night-2', validators: first.result.validators });
  const downloads = second.requests.filter((request) => request.path === ABN_PART_1 || request.path === ABN_PART_2);
  assert.deepEqual(downloads.map((request) => [request.path, request.status, request.conditional !== undefined]), [
    [ABN_PART_1, 304, true], // unchanged since night 1
    [ABN_PART_2, 200, true], // republished: its ETag no longer matches
    [ABN_PART_1, 200, false], // so part 1 is read again, unconditionally, and the register is replaced whole
  ]);
  assert.equal(second.result.failed, false, second.result.diagnosis ?? '');
  assert.equal(second.result.recordCount, 21, 'seventeen entities from part 1 and four from part 2');
  assert.equal(second.result.notModifiedSince, null);
  assert.deepEqual(second.result.validators.map((v) => v.etag).sort(), ['"0ae4d427-20260923"', '"635fcb95-20260930"']);
});

test('records are staged to disk in batches as they are emitted, never held in the crawl result', async () => {
  const BULK = 50_000;
  let count = 0;
  const stagedWhileCrawling: number[] = [];
  const workDir = await tempDir('streaming-');
  await mkdir(join(workDir, 'staging'), { recursive: true });
  const bulk = defineSource({
    id: 'test_html_rows', tag: 'BULK', name: 'Bulk test register', jurisdiction: 'AU', tier: 'federal', kinds: ['company'], mode: 'html',
    origin: 'https://example.gov.au', homepage: 'https://example.gov.au/', licence: 'test data', attribution: 'test data', caveats: [],
    politeness: DEFAULT_POLITENESS,
    start: (ctx) => [{ url: ctx.url('/list'), label: 'LIST' }],
    routes: {
      LIST: async (fetched) => {
        for (let i = 0; i < count; i++) {
          fetched.emit({
            record_type: 'company', acn: String(i).padStart(9, '0'), name: `COMPANY ${i} PTY LTD`, is_current_name: true, current_name: null,
            current_name_start_date: null, type: 'APTY', class: 'LMSH', sub_class: 'PROP', status: 'REGD', registered_date: '2001-01-01',
            deregistered_date: null, previous_state: null, state_registration_number: null, abn: null, as_of: '2026-09-22', url: 'https://example.gov.au/list',
          });
        }
        if (count > 0) stagedWhileCrawling.push(readFileSync(stagingPath(workDir, 'test_html_rows', 'company'), 'utf8').split('\n').length - 1);
      },
    },
  });
  const root = fileURLToPath(new URL('./fixtures/sources/', import.meta.url));
  // Heap readings after a collection measure what is still held, not garbage awaiting collection. Each crawl
  // costs the crawler some memory of its own whatever it emits, so an empty crawl is the baseline.
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  const heapGrowthOf = async (records: number, sink: StagingWriter) => {
    count = records;
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const crawl = await crawlOnce(bulk, { root, sink, workDir });
    collectGarbage();
    return { crawl, growth: process.memoryUsage().heapUsed - before };
  };
  await heapGrowthOf(0, new StagingWriter(workDir, bulk)); // warms the crawler's modules and caches up
  const empty = await heapGrowthOf(0, new StagingWriter(workDir, bulk));
  const sink = new StagingWriter(workDir, bulk);
  const { crawl: { result }, growth } = await heapGrowthOf(BULK, sink);
  sink.close();
  assert.equal(result.failed, false, result.diagnosis ?? '');
  assert.equal(result.recordCount, BULK);
  assert.deepEqual(result.records, [], 'nothing is held in the result');
  assert.deepEqual(stagedWhileCrawling, [BULK], 'every batch was on disk before the handler returned');
  const staged = (await readFile(stagingPath(workDir, 'test_html_rows', 'company'), 'utf8')).trimEnd().split('\n');
  assert.equal(staged.length, BULK);
  assert.deepEqual(JSON.parse(staged[12_345]!), {
    acn: '000012345', name: 'COMPANY 12345 PTY LTD', is_current_name: true, current_name: null, current_name_start_date: null, type: 'APTY', class: 'LMSH',
    sub_class: 'PROP', status: 'REGD', registered_date: '2001-01-01', deregistered_date: null, previous_state: null, state_registration_number: null,
    abn: null, as_of: '2026-09-22', url: 'https://example.gov.au/list', source: 'test_html_rows',
  });
  // Holding 50,000 validated records takes about 14 MB of heap; staged, they add almost nothing to an empty crawl's.
  const added = growth - empty.growth;
  assert.ok(added < 4 * 1024 * 1024, `50,000 staged records added ${(added / 1024 / 1024).toFixed(1)} MB to the heap`);
});
