import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MAX_DOCUMENT_BYTES } from '../api/checkers/_runner/intake.ts';
import { SafeFetchError, type SafeFetcher } from '../lib/safe-fetch.ts';
import { base64, checkerApp, postFiles, postJson, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
const detailOf = async (reply: Response) => ((await reply.json()) as { detail: string }).detail;

/** The events of a Server-Sent Events body, in order. */
async function events(reply: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await reply.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event:'))!.slice(6).trim();
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

const oneDocument = (comment: string) => ({ documents: [{ bytes_b64: base64(tinyPdf(comment)), filename: `${comment}.pdf` }] });

describe('document checker machinery', () => {
  describe('sizes', () => {
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp()));
    after(() => checker.close());

    it('refuses an upload over 25 MB with 413 before the analysis sees it', async () => {
      const big = new Uint8Array(MAX_DOCUMENT_BYTES + 1);
      big.set(tinyPdf());
      const reply = await postFiles(checker.app, '/v1/identity-check', 'files', [{ bytes: big, name: 'big.pdf' }]);
      assert.equal(reply.status, 413);
      assert.equal(await detailOf(reply), 'The document (big.pdf) is 25.0 MB; documents are limited to 25 MB (26214400 bytes). Send a smaller file, or fewer pages.');
      assert.equal(await unitsUsed(checker), 0);
    });

    it('refuses base64 whose decoded size is over 25 MB with 413, judged from its length, even when it is not valid base64', async () => {
      // 25 MB + 3 bytes as base64 text, with a character base64 does not allow: the size decides first.
      const text = `${'A'.repeat(Math.ceil((MAX_DOCUMENT_BYTES + 3) / 3) * 4 - 1)}*`;
      const reply = await postJson(checker.app, '/v1/identity-check', { documents: [{ bytes_b64: text, filename: 'big.pdf' }] });
      assert.equal(reply.status, 413);
      assert.match(await detailOf(reply), /^The document \(big\.pdf\) is 25\.0 MB; documents are limited to 25 MB/);
      const exactly = `${Buffer.from(tinyPdf()).toString('base64')}`;
      assert.equal((await postJson(checker.app, '/v1/identity-check', { documents: [{ bytes_b64: exactly }] })).status, 200);
    });

    it('refuses a body declared larger than the route takes with 413 before reading it', async () => {
      const reply = await checker.app.request('/v1/identity-check', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) }, body: '{}' });
      assert.equal(reply.status, 413);
      assert.match(await detailOf(reply), /^The request body is larger than/);
    });
  });

  describe('url documents', () => {
    const asked: string[] = [];
    const pages: Record<string, Uint8Array | SafeFetchError> = {
      'https://docs.example/licence.pdf': tinyPdf('fetched'),
      'http://10.0.0.1/secret.pdf': new SafeFetchError('refused', '10.0.0.1 is a private network address; only public hosts are read.'),
      'https://docs.example/huge.pdf': new SafeFetchError('too_large', 'The page is larger than 25 MB.'),
      'https://down.example/a.pdf': new SafeFetchError('unreachable', 'down.example did not answer.'),
    };
    const fetchDocument: SafeFetcher = async (url) => {
      asked.push(url);
      const page = pages[url];
      if (page instanceof SafeFetchError) throw page;
      if (page === undefined) throw new SafeFetchError('unreachable', `${url} answered 404.`);
      return { url, status: 200, contentType: 'application/pdf', body: Buffer.from(page) };
    };
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp({ fetchDocument })));
    after(() => checker.close());

    it('reads {url} documents only through the given fetcher, naming the file after the URL', async () => {
      const reply = await postJson(checker.app, '/v1/identity-check', { documents: [{ url: 'https://docs.example/licence.pdf' }] });
      assert.equal(reply.status, 200);
      assert.equal(((await reply.json()) as { documents: { filename: string }[] }).documents[0]!.filename, 'licence.pdf');
      assert.deepEqual(asked, ['https://docs.example/licence.pdf']);
    });

    it('answers a refused URL 400, an oversized one 413 and an unreachable one 502', async () => {
      for (const [url, status] of [['http://10.0.0.1/secret.pdf', 400], ['https://docs.example/huge.pdf', 413], ['https://down.example/a.pdf', 502]] as const) {
        const reply = await postJson(checker.app, '/v1/identity-check', { documents: [{ url }] });
        assert.equal(reply.status, status, url);
        assert.match(await detailOf(reply), /^The document \((secret|huge|a)\.pdf\): \S/);
      }
    });
  });

  describe('failing analyses', () => {
    let checker: CheckerApp;
    const timeoutMs = 1_000;
    before(async () => (checker = await checkerApp({ analyses: { identity_check: 'hang' }, pool: { timeoutMs }, heartbeatMs: 200 })));
    after(() => checker.close());

    it('answers a hanging analysis with 422 and the reason in bounded time, uncounted, and the server goes on', async () => {
      const started = performance.now();
      const reply = await postJson(checker.app, '/v1/identity-check', oneDocument('hang'));
      // The pool's time limit and the worker's replacement, not the hang: a few times the limit at most.
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 5 * timeoutMs, `${Math.round(elapsed)} ms against a ${timeoutMs} ms limit`);
      assert.equal(reply.status, 422);
      assert.equal(await detailOf(reply), 'The document could not be analysed: The analysis did not finish within 1 seconds, and was stopped. Nothing was counted against your allowance.');
      assert.equal(await unitsUsed(checker), 0);
      const next = await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', [{ bytes: tinyPdf('after'), name: 'after.pdf' }]);
      assert.equal(next.status, 200);
    });

    it('streams heartbeats while it waits, then an error event with the reason', async () => {
      const before = await unitsUsed(checker);
      const reply = await postJson(checker.app, '/v1/identity-check?stream=1', oneDocument('hang-stream'));
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get('content-type') ?? '', /^text\/event-stream/);
      const stream = await events(reply);
      assert.equal(stream[0]!.event, 'received');
      assert.ok(stream.filter((entry) => entry.event === 'working').length >= 3, stream.map((entry) => entry.event).join(','));
      assert.deepEqual(stream.at(-1), { event: 'error', data: { detail: 'The document could not be analysed: The analysis did not finish within 1 seconds, and was stopped. Nothing was counted against your allowance.' } });
      assert.equal(await unitsUsed(checker), before);
    });
  });

  describe('memory exhaustion', () => {
    let checker: CheckerApp;
    // A time limit the heap limit is always reached well before, on a loaded machine too.
    before(async () => (checker = await checkerApp({ analyses: { check_pack: 'exhaustMemory' }, pool: { timeoutMs: 30_000, memoryMb: 64 } })));
    after(() => checker.close());

    it('answers an analysis that exhausts its memory with 422 and the reason, uncounted', async () => {
      const reply = await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', [{ bytes: tinyPdf('oom'), name: 'oom.pdf' }]);
      assert.equal(reply.status, 422);
      assert.match(await detailOf(reply), /needed more than the 64 MB of memory a document may use/);
      assert.equal(await unitsUsed(checker), 0);
    });
  });

  describe('a full queue', () => {
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp({ analyses: { identity_check: 'hang' }, pool: { size: 1, queueLimit: 1, timeoutMs: 1_500 } })));
    after(() => checker.close());

    it('answers 503 with Retry-After once every slot and the queue are taken, uncounted', async () => {
      const running = postJson(checker.app, '/v1/identity-check', oneDocument('first'));
      const waiting = postJson(checker.app, '/v1/identity-check', oneDocument('second'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const path of ['/v1/identity-check', '/v1/identity-check?stream=1']) {
        const refused = await postJson(checker.app, path, oneDocument('third'));
        assert.equal(refused.status, 503, path);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        assert.match(await detailOf(refused), /^Every document analysis slot is busy and the queue is full; try again in \d+ seconds\.$/);
      }
      assert.deepEqual([(await running).status, (await waiting).status], [422, 422]);
      assert.equal(await unitsUsed(checker), 0);
    });
  });

  describe('identical requests at once', () => {
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp({ pool: { size: 1, queueLimit: 2 }, caps: { anonymous: 1000 } })));
    after(() => checker.close());

    it('make one analysis: the others wait for it and are answered free, as a stored result is', async () => {
      const body = { documents: [{ bytes_b64: base64(tinyPdf('same')), filename: 'same.pdf' }] };
      // Twenty at once through a pool of one slot and a queue of two: without joining, most would be refused 503.
      const replies = await Promise.all(Array.from({ length: 20 }, () => postJson(checker.app, '/v1/identity-check', body)));
      assert.deepEqual(replies.map((reply) => reply.status), new Array(20).fill(200));
      assert.equal(replies.filter((reply) => reply.headers.get('svc-cache') === 'hit').length, 19);
      assert.equal(await unitsUsed(checker), 1);
    });
  });

  describe('streaming', () => {
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp({ heartbeatMs: 100 })));
    after(() => checker.close());

    it('sends received, working heartbeats, then the result, counting the call once it ends; a repeat streams the stored result free', async () => {
      const reply = await postJson(checker.app, '/v1/identity-check?stream=1', oneDocument('streamed'));
      const stream = await events(reply);
      assert.deepEqual(stream.map((entry) => entry.event).filter((event, index, all) => event !== all[index - 1]), ['received', 'working', 'result']);
      const sha256 = createHash('sha256').update(tinyPdf('streamed')).digest('hex');
      assert.deepEqual(stream[0]!.data, { documents: [{ filename: 'streamed.pdf', sha256, size_bytes: tinyPdf('streamed').byteLength, media_type: 'application/pdf' }], cached: false });
      assert.ok(stream.some((entry) => entry.event === 'working' && entry.data['stage'] === 'classifying'));
      const result = stream.at(-1)!.data as { reason: string; documents: { filename: string }[] };
      assert.equal(result.documents[0]!.filename, 'streamed.pdf');
      assert.equal(await unitsUsed(checker), 1);
      const again = await events(await postJson(checker.app, '/v1/identity-check?stream=1', oneDocument('streamed')));
      assert.deepEqual(again.map((entry) => entry.event), ['received', 'result']);
      assert.equal(again[0]!.data['cached'], true);
      assert.deepEqual(again[1]!.data, result);
      assert.equal(await unitsUsed(checker), 1);
    });

    it('is never replayed by Idempotency-Key: the same key streams again', async () => {
      const headers = { 'idempotency-key': 'stream-key-1' };
      const first = await postJson(checker.app, '/v1/identity-check?stream=1&fresh=1', oneDocument('idem'), headers);
      await first.text();
      const second = await postJson(checker.app, '/v1/identity-check?stream=1&fresh=1', oneDocument('idem'), headers);
      assert.equal(second.headers.get('idempotent-replayed'), null);
      assert.match(second.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal((await events(second)).at(-1)!.event, 'result');
    });
  });

  describe('at the weekly cap', () => {
    const fetched: string[] = [];
    const fetchDocument: SafeFetcher = async (url) => {
      fetched.push(url);
      return { url, status: 200, contentType: 'application/pdf', body: Buffer.from(tinyPdf('fetched at the cap')) };
    };
    let checker: CheckerApp;
    before(async () => (checker = await checkerApp({ caps: { anonymous: 2 }, fetchDocument })));
    after(() => checker.close());

    it('answers identical bytes from the stored result, free, on every cached checker; anything that needs work is 429', async () => {
      const pdf = tinyPdf('at the cap');
      const identity = { documents: [{ bytes_b64: base64(pdf), filename: 'a.pdf' }] };
      const warrant = { bytes_b64: base64(pdf), filename: 'a.pdf' };
      assert.equal((await postJson(checker.app, '/v1/identity-check', identity)).status, 200);
      assert.equal((await postJson(checker.app, '/v1/warrants', warrant)).status, 200);
      assert.equal(await unitsUsed(checker), 2, 'the week is used up');

      for (const [path, body] of [['/v1/identity-check', identity], ['/v1/warrants', warrant]] as const) {
        const again = await postJson(checker.app, path, body);
        assert.equal(again.status, 200, `${path}: resubmission is free, at the cap too`);
        assert.equal(again.headers.get('svc-cache'), 'hit');
        const streamed = await postJson(checker.app, `${path}?stream=1`, body);
        assert.equal((await events(streamed)).at(-1)!.event, 'result', `${path}: streamed from the store`);
        const fresh = await postJson(checker.app, `${path}?fresh=1`, body);
        assert.equal(fresh.status, 429, `${path}: fresh=1 is work`);
        assert.match(fresh.headers.get('retry-after') ?? '', /^\d+$/);
        assert.match(await detailOf(fresh), /^This network address has used its 2 free checks this week/);
      }
      assert.equal((await postJson(checker.app, '/v1/identity-check', oneDocument('new bytes'))).status, 429, 'new bytes are work');
      const byUrl = await postJson(checker.app, '/v1/identity-check', { documents: [{ url: 'https://docs.example/new.pdf' }] });
      assert.equal(byUrl.status, 429);
      assert.deepEqual(fetched, [], 'no document is fetched for a caller with nothing left');
      assert.equal(await unitsUsed(checker), 2);
    });
  });
});
