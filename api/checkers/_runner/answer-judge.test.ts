import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Hono } from 'hono';
import { checkerAnalyses } from '../registry.ts';
import type { CallerEnv } from '../../accounts/caller.ts';
import { metered } from '../../middleware/metered.ts';
import { createSafeFetcher } from '../../../lib/safe-fetch.ts';
import { servicesFromEnv, type Services } from '../../providers/index.ts';
import { createMeter } from '../../usage/meter.ts';
import { answer, COUNTED_HEADER, judgedReplyCounts } from './answer.ts';
import { createAnalysisPool, type AnalysisLocation } from './pool.ts';
import type { IntakeDocument } from '../../documents/types.ts';
import { openTestState } from '../../../test/helpers/state.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');
const hang: AnalysisLocation = { moduleUrl: new URL('../../../test/helpers/test-analyses.ts', import.meta.url).href, exportName: 'hang' };

function textDocument(text: string): IntakeDocument {
  return { bytes: new TextEncoder().encode(text), sha256: 'c'.repeat(64), kind: 'text', mime: 'text/plain', filename: 'notes.txt' };
}

/** No provider configured: this judge asks none of them, it only checks that it was handed these. */
const services: Services = servicesFromEnv({}, createSafeFetcher());

/**
 * A route over `answer` on the judge lane: the judge counts the words of the text it is handed and asks the meter
 * to count the reply unless `?abstain=1`, as a checker that abstains would.
 */
async function app(pool: ReturnType<typeof createAnalysisPool>) {
  const state = await openTestState();
  const meter = createMeter({ state, now: () => NOW });
  const server = new Hono<CallerEnv>();
  server.use('*', async (c, next) => {
    c.set('caller', { kind: 'anonymous', ip: '203.0.113.9' });
    await next();
  });
  server.post('/judge', metered({ meter, countIf: judgedReplyCounts }), async (c) => {
    const abstain = c.req.query('abstain') === '1';
    const stages: string[] = [];
    return answer(c, { pool, services, heartbeatMs: 60_000 }, {
      documents: [textDocument(await c.req.text())],
      now: NOW,
      stream: c.req.query('stream') === '1',
      stored: undefined,
      lane: {
        kind: 'judge',
        read: {},
        async judge(text, given, context) {
          context.progress('judging');
          stages.push('judging');
          assert.equal(given, services);
          assert.equal(context.now, NOW);
          const words = text.documents[0]!.pages[0]!.text.split(/\s+/).length;
          return { reply: { words, kind: text.documents[0]!.kind, ocr_used: text.documents[0]!.ocr_used, stages }, counts: !abstain };
        },
      },
    });
  });
  const used = async () => (await state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
  return { server, used };
}

async function events(reply: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  return (await reply.text())
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      return {
        event: lines.find((line) => line.startsWith('event:'))!.slice(6).trim(),
        data: JSON.parse(lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n')) as Record<string, unknown>,
      };
    });
}

describe('answer on the judge lane', () => {
  const readingPool = createAnalysisPool({ analyses: { read_text: checkerAnalyses['read_text']! }, size: 1 });
  const hangingPool = createAnalysisPool({ analyses: { read_text: hang }, size: 1, queueLimit: 0, timeoutMs: 800 });
  after(async () => {
    await readingPool.close();
    await hangingPool.close();
  });

  it('reads the document in the pool, hands its text to the judge and counts the reply when the judge says so', async () => {
    const { server, used } = await app(readingPool);
    const reply = await server.request('/judge', { method: 'POST', body: 'Revenue rose by 12 per cent in 2024.' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get(COUNTED_HEADER), 'yes');
    assert.deepEqual(await reply.json(), { words: 8, kind: 'text', ocr_used: false, stages: ['judging'] });
    assert.equal(await used(), 1);
  });

  it('does not count a reply the judge marks uncounted (an abstention or an outage)', async () => {
    const { server, used } = await app(readingPool);
    const reply = await server.request('/judge?abstain=1', { method: 'POST', body: 'Too short.' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get(COUNTED_HEADER), 'no');
    assert.equal(await used(), 0);
  });

  it('streams received, working heartbeats with the stages, then the result, and settles the unit as the judge says', async () => {
    const counted = await app(readingPool);
    const stream = await counted.server.request('/judge?stream=1', { method: 'POST', body: 'One two three.' });
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    const sent = await events(stream);
    assert.equal(sent[0]!.event, 'received');
    assert.deepEqual(sent[0]!.data['documents'], [{ filename: 'notes.txt', sha256: 'c'.repeat(64), size_bytes: 14, media_type: 'text/plain' }]);
    assert.ok(sent.some((event) => event.event === 'working' && event.data['stage'] === 'judging'));
    assert.deepEqual(sent.at(-1), { event: 'result', data: { words: 3, kind: 'text', ocr_used: false, stages: ['judging'] } });
    assert.equal(await counted.used(), 1);

    const abstained = await app(readingPool);
    const quiet = await events(await abstained.server.request('/judge?stream=1&abstain=1', { method: 'POST', body: 'One two three.' }));
    assert.equal(quiet.at(-1)!.event, 'result');
    assert.equal(await abstained.used(), 0);
  });

  it('answers 422 {detail} when reading fails at the time limit, as JSON or as an error event, counting nothing', async () => {
    const { server, used } = await app(hangingPool);
    const reply = await server.request('/judge', { method: 'POST', body: 'anything' });
    assert.equal(reply.status, 422);
    assert.equal(((await reply.json()) as { detail: string }).detail, 'The document could not be read: The analysis did not finish within 1 seconds, and was stopped. Nothing was counted against your allowance.');
    const sent = await events(await server.request('/judge?stream=1', { method: 'POST', body: 'anything' }));
    assert.equal(sent.at(-1)!.event, 'error');
    assert.match(String(sent.at(-1)!.data['detail']), /^The document could not be read/);
    assert.equal(await used(), 0);
  });

  it('answers 503 with Retry-After when every slot is busy and the queue is full, counting nothing', async () => {
    const { server, used } = await app(hangingPool);
    const first = server.request('/judge', { method: 'POST', body: 'first' });
    // Let the first request reach the pool before the second asks.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await server.request('/judge', { method: 'POST', body: 'second' });
    assert.equal(second.status, 503);
    assert.ok(Number(second.headers.get('retry-after')) >= 1);
    assert.match(((await second.json()) as { detail: string }).detail, /^Every document analysis slot is busy/);
    assert.equal((await first).status, 422);
    assert.equal(await used(), 0);
  });
});
