import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { loadRegistry } from '../sources/_contract/registry.ts';
import type { SourceDefinition } from '../sources/_contract/define-source.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { checkerApp, type CheckerApp } from './helpers/checker-app.ts';
import { crawlOnFixtures } from './helpers/crawl-fixtures.ts';
import { fuzzOptions, anyText } from './helpers/fuzz-text.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';

/**
 * Property-based fuzzing of every parser of untrusted input (issue 24's standing test; `.slow` in its name:
 * it takes minutes, and CI runs it with the rest of `npm test`). Three families, each with a fixed seed and a
 * time budget (fuzzOptions), so a failure replays and a hang fails instead of running on:
 * - documents: real PDFs, images and a .docx from the corpora, mutated (bits flipped, truncated, bytes
 *   inserted, a chunk repeated or zeroed), through intake, the guarded open and the real analyses in the pool;
 * - sources: real recorded captures mutated the same way and crawled by the real adapters over loopback;
 * - queries and bodies: every route of the OpenAPI document asked with arbitrary query values and JSON bodies.
 * The property everywhere: an answer (never a 5xx, never a thrown error), within a bound.
 */

const ROOT = join(import.meta.dirname, '..');

/** A mutation of a byte string: what a damaged download, a bad editor or an attacker makes of a real file. */
type Mutation = { kind: 'flip'; at: number; bit: number } | { kind: 'truncate'; at: number } | { kind: 'insert'; at: number; bytes: number[] } | { kind: 'repeat'; at: number; length: number; times: number } | { kind: 'zero'; at: number; length: number };

// Where in the file a mutation falls: anywhere, though fast-check's bias to small values would otherwise keep
// breaking the magic number, which intake refuses at once and which tells nothing of the parsers behind it.
const share = fc.oneof({ weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) }, { weight: 4, arbitrary: fc.double({ min: 0.05, max: 1, noNaN: true }) });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: share, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: share }),
  fc.record({ kind: fc.constant('insert' as const), at: share, bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('repeat' as const), at: share, length: fc.integer({ min: 1, max: 4096 }), times: fc.integer({ min: 2, max: 50 }) }),
  fc.record({ kind: fc.constant('zero' as const), at: share, length: fc.integer({ min: 1, max: 4096 }) }),
).map((m) => m as Mutation);

export function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    const at = Math.min(out.length, Math.floor(m.at * out.length));
    if (m.kind === 'flip' && at < out.length) out[at]! ^= 1 << m.bit;
    else if (m.kind === 'truncate') out = out.subarray(0, Math.max(1, at));
    else if (m.kind === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes), out.subarray(at)]);
    else if (m.kind === 'repeat') out = Buffer.concat([out.subarray(0, at + m.length), ...Array.from({ length: m.times - 1 }, () => out.subarray(at, at + m.length)), out.subarray(at + m.length)]);
    else if (m.kind === 'zero') out.fill(0, at, Math.min(out.length, at + m.length));
  }
  return new Uint8Array(out);
}

const SEEDS = [
  'fixtures/corpora/invoices/mustang-en16931_1_teilrechnung.pdf',
  'fixtures/corpora/signatures',
  'fixtures/corpora/images',
  'fixtures/bids/qld-ito-fleet-telematics.docx',
  'fixtures/documents/real/pypdf-crazyones.pdf',
];

/** A few real files of each kind: the first PDF of a folder when a folder is named, small ones first. */
async function seedFiles(): Promise<{ name: string; bytes: Uint8Array }[]> {
  const seeds: { name: string; bytes: Uint8Array }[] = [];
  for (const entry of SEEDS) {
    const path = join(ROOT, entry);
    const info = await stat(path).catch(() => null);
    if (info === null) continue;
    const files = info.isDirectory()
      ? (await readdir(path)).filter((name) => /\.(pdf|jpe?g|png)$/i.test(name)).sort().slice(0, 2).map((name) => join(path, name))
      : [path];
    for (const file of files) {
      const bytes = await readFile(file);
      if (bytes.byteLength < 2 * 1024 * 1024) seeds.push({ name: file.slice(ROOT.length + 1), bytes: new Uint8Array(bytes) });
    }
  }
  return seeds;
}

describe('fuzzing documents through intake, the guarded open and the real analyses', () => {
  let checker: CheckerApp;
  let seeds: { name: string; bytes: Uint8Array }[];
  before(async () => {
    seeds = await seedFiles();
    checker = await checkerApp({ real: ['inspect_document', 'extract_document', 'read_text'], pool: { timeoutMs: 20_000 }, caps: { anonymous: 100_000 } });
  });
  after(() => checker.close());

  it('answers every mutated real file on warrants and extract, never 5xx', { timeout: 600_000 }, async () => {
    assert.ok(seeds.length >= 5, `${seeds.length} seed files`);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.constantFrom('/v1/warrants', '/v1/extract'), async (index, mutations, path) => {
        const seed = seeds[index]!;
        const bytes = mutate(seed.bytes, mutations);
        const form = new FormData();
        form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], seed.name.split('/').pop()!));
        const reply = await checker.app.request(`${path}?fresh=1`, { method: 'POST', body: form });
        const body = await reply.text();
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        assert.ok(reply.status < 500, `${path} ${seed.name} ${JSON.stringify(mutations)}: ${reply.status} ${body.slice(0, 300)}`);
      }),
      { ...fuzzOptions(60), plugins: [fc.interruptAfterTimeLimit(480_000, { failOnInterrupt: true })] },
    );
    console.log(`documents: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
  });
});

describe('fuzzing the source adapters over mutated real captures', () => {
  // Sources read by the cheerio and JSON crawlers; the browser sources' parsers see what a real page renders.
  let sources: SourceDefinition[];
  before(async () => {
    sources = (await loadRegistry()).filter((source) => source.mode !== 'browser');
  });

  it('crawls each source over damaged captures without throwing: bad pages are counted and diagnosed', { timeout: 900_000 }, async () => {
    assert.ok(sources.length >= 15, `${sources.length} sources`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...(sources ?? []).map((source) => source.id)), fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 1_000 }), async (id, mutations, pick) => {
        const root = await mkdtemp(join(tmpdir(), 'fuzz-sources-'));
        try {
          await cp(join(FIXTURES_ROOT, id), join(root, id), { recursive: true });
          const files = (await readdir(join(root, id), { recursive: true })).filter((name) => !name.endsWith('_meta.json'));
          const victim = files[pick % files.length];
          if (victim !== undefined) {
            const path = join(root, id, victim);
            if ((await stat(path)).isFile()) await writeFile(path, mutate(new Uint8Array(await readFile(path)), mutations));
          }
          // The property: damage shows as invalid records, errors or a diagnosis, never as an exception out of the crawl.
          const crawl = await crawlOnFixtures(sources.find((source) => source.id === id)!, { root });
          if (crawl.failed) assert.ok(crawl.diagnosis, `${id} failed without saying why`);
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }),
      { ...fuzzOptions(30), plugins: [fc.interruptAfterTimeLimit(600_000, { failOnInterrupt: true })] },
    );
  });
});

describe('fuzzing every route\'s query and body', () => {
  const NOW = new Date('2026-06-10T02:00:00.000Z');
  let dataDir: string;
  let store: ReleaseStore;
  let app: Awaited<ReturnType<typeof createApp>>;
  let routes: { method: string; path: string; query: string[] }[];

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Road maintenance', reference: 'R-1', closing_date: '2026-07-01' })], sources: [sourceRow()], releaseId: 'release-fuzz' });
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    app = await createApp({ store, burst: false, now: () => NOW });
    const document = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name) })),
    );
  });
  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const value = fc.oneof(anyText(40), fc.integer().map(String), fc.double().map(String), fc.constantFrom('', 'true', '0', '-1', '1e309', '2026-13-45', 'NaN', '%', '[]', '{}', 'null'));
  const jsonBody = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.constantFrom('url', 'text', 'name', 'query', 'example', 'bytes_b64', 'documents', 'fields', 'template', 'org_id', 'title', 'verdict', 'tool', 'email'), fc.jsonValue({ maxDepth: 3 })));

  it('answers arbitrary query values and JSON bodies on every route, never 5xx', { timeout: 600_000 }, async () => {
    assert.ok(routes.length >= 60, `${routes.length} routes`);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), fc.array(fc.tuple(fc.nat(), value), { maxLength: 4 }), jsonBody, fc.array(value, { minLength: 3, maxLength: 3 }), async (pick, params, body, segments) => {
        const route = routes[pick % routes.length]!;
        let segment = 0;
        const path = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(segments[segment++ % segments.length]!.toWellFormed()));
        const query = new URLSearchParams(params.map(([name, v]) => [route.query.length > 0 ? route.query[name % route.query.length]! : `p${name % 3}`, v]));
        const init: RequestInit = { method: route.method, headers: { 'content-type': 'application/json' } };
        if (route.method !== 'GET' && route.method !== 'DELETE') init.body = JSON.stringify(body);
        const reply = await app.request(`${path}?${query}`, init);
        const text = await reply.text();
        assert.ok(reply.status < 500 || reply.status === 503, `${route.method} ${path}?${query} ${JSON.stringify(body).slice(0, 120)}: ${reply.status} ${text.slice(0, 300)}`);
      }),
      { ...fuzzOptions(600), plugins: [fc.interruptAfterTimeLimit(300_000, { failOnInterrupt: true })] },
    );
  });
});
