import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { appendUpdate, simplePdf, textLines } from '../../../test/helpers/pdf-files.ts';
import type { ThreadReport } from '../../../test/helpers/warrant-thread.ts';

/**
 * Each broken file must get a result (never an exception) within this many times the intact file's time, measured
 * in the same thread: a loaded machine slows both alike, and only a broken file sending the analysis down a path
 * that grows without bound (a reference cycle followed, a stream inflated past its limit) fails it.
 */
const timesTheIntactFile = 100;
/** The intact file is analysed this many times first and its fastest time taken, so one slow first call (warm-up) is not the baseline. */
const intactRuns = 4;

const base = simplePdf({
  pages: [textLines(['TAX INVOICE 2041', 'Total due 1200.00']), textLines(['Page two'])],
  catalog: '/AcroForm << /Fields [20 0 R] >>',
  objects: [{ num: 20, body: '<< /FT /Tx /T (Amount) /V (1) >>' }],
});
const updated = appendUpdate(base, [{ num: 20, body: '<< /FT /Tx /T (Amount) /V (2) >>' }], '/Root 1 0 R /Info 4 0 R /Size 30');

/** Deterministic pseudo-random numbers (a linear congruential generator) so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function flipBits(bytes: Uint8Array, count: number, seed: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  const next = random(seed);
  for (let index = 0; index < count; index++) copy[Math.floor(next() * copy.length)]! ^= 1 << Math.floor(next() * 8);
  return copy;
}

const latin = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const replace = (bytes: Uint8Array, pattern: RegExp | string, by: string): Uint8Array => latin(Buffer.from(bytes).toString('latin1').replace(pattern, by));

const broken: [string, Uint8Array][] = [
  ['empty header', latin('%PDF-1.7\n')],
  ['header then garbage', latin(`%PDF-1.4\n${'x'.repeat(5000)}`)],
  ['deeply nested arrays', latin(`%PDF-1.4\n1 0 obj\n${'['.repeat(200_000)}\nendobj\n`)],
  ['an unterminated string', latin(`%PDF-1.4\n1 0 obj\n(${'a'.repeat(100_000)}\n`)],
  ['startxref far past the end', replace(base, /startxref\s+\d+/, 'startxref 999999999')],
  ['xref entries all pointing to byte 0', replace(base, /\d{10} 00000 n/g, '0000000000 00000 n')],
  ['a /Prev cycle of one', replace(updated, /\/Prev \d+/, `/Prev ${/startxref\s+(\d+)\s*%%EOF\s*$/.exec(Buffer.from(updated).toString('latin1'))![1]}`)],
  ['a page tree whose kid is itself', replace(base, '/Kids [5 0 R 7 0 R]', '/Kids [2 0 R 5 0 R]')],
  ['a huge object number', replace(base, /^5 0 obj/m, '99999999999 0 obj')],
  ...[0.1, 0.3, 0.5, 0.7, 0.9, 0.99].map((share): [string, Uint8Array] => [`truncated at ${share * 100}%`, updated.subarray(0, Math.floor(updated.length * share))]),
  ...Array.from({ length: 12 }, (_, seed): [string, Uint8Array] => [`${1 + seed * 4} bits flipped (seed ${seed})`, flipBits(updated, 1 + seed * 4, seed + 1)]),
];

/** Runs every broken file through analyseWarrant in one thread, the way the analysis pool runs it. */
function runInThread(files: [string, Uint8Array][]): Promise<ThreadReport[]> {
  return new Promise((resolve, reject) => {
    const reports: ThreadReport[] = [];
    const worker = new Worker(new URL('../../../test/helpers/warrant-thread.ts', import.meta.url), { workerData: { files: files.map(([name, bytes]) => ({ name, bytes })) } });
    worker.on('message', (report: ThreadReport) => {
      reports.push(report);
      if ('done' in report) void worker.terminate().then(() => resolve(reports));
    });
    worker.on('error', reject);
  });
}

test('every broken file gets a band and a rule in bounded time, and none throws out of analyseWarrant', async () => {
  const intact = Array.from({ length: intactRuns }, (_, run): [string, Uint8Array] => [`intact ${run}`, updated]);
  const all = await runInThread([...intact, ...broken]);
  const intactMs = Math.min(...all.slice(0, intactRuns).map((report) => ('ms' in report ? report.ms : Infinity)));
  assert.ok(Number.isFinite(intactMs), 'the intact file was analysed');
  const reports = all.slice(intactRuns);
  for (const report of reports) {
    if ('done' in report) continue;
    assert.ok(!('threw' in report), `${report.name} threw: ${'threw' in report ? report.threw : ''}`);
    assert.ok(report.ms < timesTheIntactFile * intactMs, `${report.name} took ${Math.round(report.ms)} ms, ${Math.round(report.ms / intactMs)}× the intact file's ${intactMs.toFixed(1)} ms (bound ${timesTheIntactFile}×)`);
    assert.ok(['low', 'medium', 'high', 'insufficient', 'error'].includes(report.band), report.name);
    assert.ok(report.rule.includes('Applied: '));
    if (report.band === 'error') assert.equal(report.quality, 'failed', report.name);
  }
  assert.equal(reports.filter((report) => !('done' in report)).length, broken.length);
  const slowest = reports.filter((report) => 'ms' in report).sort((a, b) => ('ms' in b ? b.ms : 0) - ('ms' in a ? a.ms : 0))[0];
  console.log(`broken files: ${broken.length}, intact file ${intactMs.toFixed(1)} ms, slowest ${slowest && 'ms' in slowest ? `${slowest.name} ${Math.round(slowest.ms)} ms (${Math.round(slowest.ms / intactMs)}×)` : '-'}`);
  // pdfjs-dist 5.6 leaves an unawaited rejection behind when a page-tree kid has the wrong generation
  // number (Catalog.getPageDict prefetches kids); it never reaches the result. Anything else is a defect.
  const strays = reports.flatMap((report) => ('done' in report ? report.strays : []));
  for (const stray of strays) assert.match(stray, /^XRefEntryException: Inconsistent generation in XRef/);
});
