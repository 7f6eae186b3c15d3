import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryAfterMs } from './crawl/http.ts';
import { HostGate } from '../lib/host-gate.ts';

test('backoff doubles per attempt, honours a longer Retry-After, and is capped at a minute', () => {
  const gate = new HostGate({ scale: 1 });
  assert.deepEqual([1, 2, 3].map((attempt) => gate.backoffMs(attempt, null)), [1000, 2000, 4000]);
  assert.equal(gate.backoffMs(1, 30_000), 30_000, 'the server asked for 30 s');
  assert.equal(gate.backoffMs(3, 500), 4000, 'a shorter Retry-After does not shorten our own backoff');
  assert.equal(gate.backoffMs(1, 600_000), 60_000);
  assert.equal(new HostGate({ scale: 0 }).backoffMs(3, 30_000), 0, 'no waiting on loopback fixtures');
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('120'), 120_000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:30 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')), 30_000);
  assert.equal(retryAfterMs(undefined), null);
  assert.equal(retryAfterMs('soon'), null);
});

test('requests to one host are spaced by the delay even when two sources share it', async () => {
  const gate = new HostGate({ scale: 1 });
  const started = performance.now();
  await Promise.all([gate.wait('https://a.example/1', 60), gate.wait('https://a.example/2', 60), gate.wait('https://b.example/1', 60)]);
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 110 && elapsed < 400, `two waits on one host take two gaps (${elapsed.toFixed(0)} ms); the other host runs alongside`);
});
