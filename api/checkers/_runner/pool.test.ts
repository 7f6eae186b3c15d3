import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AnalysisPoolFullError, createAnalysisPool, type AnalysisLocation } from './pool.ts';
import type { IntakeDocument } from '../../documents/types.ts';

const testAnalyses = new URL('../../../test/helpers/test-analyses.ts', import.meta.url).href;
const analyses: Record<string, AnalysisLocation> = Object.fromEntries(
  ['echo', 'hang', 'exhaustMemory', 'fail', 'endThread'].map((name) => [name, { moduleUrl: testAnalyses, exportName: name }]),
);

const document: IntakeDocument = { bytes: new Uint8Array([37, 80, 68, 70]), sha256: 'a'.repeat(64), kind: 'pdf', mime: 'application/pdf', filename: 'a.pdf' };
const NOW = '2026-06-10T02:00:00.000Z';

describe('analysis pool', () => {
  const pool = createAnalysisPool({ analyses, size: 2, queueLimit: 2, timeoutMs: 1_500, memoryMb: 64 });
  after(() => pool.close());

  it('runs an analysis in a thread with its documents, options and clock, and relays its progress stages', async () => {
    const stages: string[] = [];
    const outcome = await pool.run<Record<string, unknown>>({ analysis: 'echo', documents: [document], options: { fields: ['total'] }, now: NOW, onProgress: (stage) => stages.push(stage) });
    assert.equal(outcome.ok, true);
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.result, {
      documents: [{ sha256: 'a'.repeat(64), kind: 'pdf', mime: 'application/pdf', filename: 'a.pdf', size: 4 }],
      options: { fields: ['total'] },
      now: NOW,
    });
    assert.deepEqual(stages, ['reading', 'checking']);
  });

  it('stops a hanging analysis at the time limit and goes on answering', async () => {
    const started = performance.now();
    const outcome = await pool.run({ analysis: 'hang', documents: [document], options: {}, now: NOW });
    const ms = performance.now() - started;
    assert.deepEqual(outcome.ok ? null : [outcome.failure, outcome.detail], ['timeout', 'The analysis did not finish within 2 seconds, and was stopped.']);
    assert.ok(ms >= 1_400 && ms < 5_000, `stopped after ${Math.round(ms)} ms`);
    assert.equal((await pool.run({ analysis: 'echo', documents: [], options: null, now: NOW })).ok, true);
  });

  it('stops an analysis that exhausts its heap, as a memory failure, and goes on answering', async () => {
    // A time limit the heap limit is always reached well before, on a loaded machine too.
    const roomy = createAnalysisPool({ analyses, size: 1, timeoutMs: 30_000, memoryMb: 64 });
    after(() => roomy.close());
    const outcome = await roomy.run({ analysis: 'exhaustMemory', documents: [], options: {}, now: NOW });
    assert.deepEqual(outcome.ok ? null : [outcome.failure, outcome.detail], ['memory', 'The analysis needed more than the 64 MB of memory a document may use, and was stopped.']);
    assert.equal((await roomy.run({ analysis: 'echo', documents: [], options: null, now: NOW })).ok, true);
  });

  it('reports a thrown error and a thread that ends itself as failures with their reason', async () => {
    const thrown = await pool.run({ analysis: 'fail', documents: [], options: {}, now: NOW });
    assert.deepEqual(thrown.ok ? null : [thrown.failure, thrown.detail], ['threw', 'The analysis failed: the test analysis refuses every document']);
    const ended = await pool.run({ analysis: 'endThread', documents: [], options: {}, now: NOW });
    assert.equal(ended.ok ? null : ended.failure, 'crashed');
    assert.equal((await pool.run({ analysis: 'echo', documents: [], options: null, now: NOW })).ok, true);
  });

  it('queues up to its limit and refuses one more at once with a Retry-After estimate', async () => {
    const slow = () => pool.run({ analysis: 'echo', documents: [], options: { delay_ms: 300 }, now: NOW });
    const accepted = [slow(), slow(), slow(), slow()];
    assert.deepEqual(pool.load(), { running: 2, queued: 2 });
    assert.throws(slow, (error: unknown) => error instanceof AnalysisPoolFullError && error.retryAfterSeconds >= 1);
    const outcomes = await Promise.all(accepted);
    assert.deepEqual(outcomes.map((outcome) => outcome.ok), [true, true, true, true]);
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  });
});
