import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type StateDb } from '../../../data/state/db.ts';
import { jobRow } from './store.ts';
import { JobWorker, type JobChange, type JobContext, type JobHandler } from './worker.ts';
import { openTestState } from '../../../test/helpers/state.ts';

/** A clock the test moves by hand: leases and back-off are measured on it. */
function manualClock(start = Date.parse('2026-06-10T00:00:00.000Z')) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

async function enqueue(state: StateDb, worker: JobWorker, kind: string, input: unknown = {}, maxAttempts = 3): Promise<string> {
  return await state.transaction(async () => await worker.enqueue({ kind, bidId: null, input, maxAttempts, now: new Date('2026-06-10T00:00:00.000Z') }));
}

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('the job worker', () => {
  it('runs steps in order, records each before the next, and a later worker reads completed steps back instead of redoing them', async () => {
    const state = await openTestState();
    const clock = manualClock();
    const done: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let hold = true;
    const handler: JobHandler = {
      async run(ctx: JobContext) {
        const a = await ctx.step('a', () => {
          done.push('a');
          return { value: 1 };
        });
        await ctx.step('b', async () => {
          done.push('b');
          if (hold) await held;
          return { value: a.value + 1 };
        });
        return { sum: ((await ctx.recorded<{ value: number }>('b'))?.value ?? 0) + a.value };
      },
    };
    // The first worker "dies" inside step b: it never renews, and its lease runs out on the manual clock.
    const first = new JobWorker({ state, handlers: { demo: handler }, leaseMs: 1000, clock: clock.now });
    const jobId = await enqueue(state, first, 'demo');
    await first.kick();
    await until(() => done.includes('b'), 'step b to start');
    assert.equal((await jobRow(state, jobId))!.state, 'running');
    clock.advance(1001);
    hold = false;
    const second = new JobWorker({ state, handlers: { demo: handler }, leaseMs: 1000, clock: clock.now });
    const report = await second.drain();
    assert.deepEqual(report.taken_over, [jobId]);
    await second.idle();
    assert.deepEqual(done, ['a', 'b', 'b'], 'a ran once; b, cut off, ran again on the second worker');
    const job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, JSON.parse(job.result!)], ['succeeded', 2, { sum: 3 }]);
    // The first worker wakes up with its step finished, and is refused: its lease passed to the second.
    release();
    await first.idle();
    assert.deepEqual((await state.all<object>('SELECT step_key, attempt FROM job_steps WHERE job_id = ? ORDER BY step_key', jobId)).map((row) => ({ ...row })), [{ step_key: 'a', attempt: 1 }, { step_key: 'b', attempt: 2 }]);
    assert.equal((await jobRow(state, jobId))!.progress_done, 2, 'the stale worker recorded nothing');
    await state.close();
  });

  it('retries a failing attempt after an exponential back-off, and ends failed with the last error when the attempts are used up', async () => {
    const state = await openTestState();
    const clock = manualClock();
    const changes: JobChange[] = [];
    let calls = 0;
    const handler: JobHandler = {
      async run(ctx) {
        await ctx.step('only', () => {
          calls++;
          throw new Error(`provider refused (${calls})`);
        });
      },
      changed: async (_job, change) => void changes.push(change),
    };
    const worker = new JobWorker({ state, handlers: { flaky: handler }, clock: clock.now, retryBaseMs: 1000, log: () => {} });
    const jobId = await enqueue(state, worker, 'flaky', {}, 3);
    await worker.kick();
    await worker.idle();
    let job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.error, job.run_after], ['queued', 1, 'provider refused (1)', '2026-06-10T00:00:01.000Z']);
    await worker.kick();
    assert.equal(calls, 1, 'not before its back-off ends');
    clock.advance(1000);
    await worker.kick();
    await worker.idle();
    job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.run_after], ['queued', 2, '2026-06-10T00:00:03.000Z'], 'the second back-off is twice the first');
    clock.advance(2000);
    await worker.kick();
    await worker.idle();
    job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.error], ['failed', 3, 'provider refused (3)']);
    assert.deepEqual(changes.map((change) => change.to), ['running', 'queued', 'running', 'queued', 'running', 'failed']);
    await worker.close();
    await state.close();
  });

  it('a worker started while a dead worker still holds a lease takes the job over when the lease runs out, without being asked', async () => {
    const state = await openTestState();
    const ran: string[] = [];
    const worker = new JobWorker({ state, handlers: { demo: { run: async (ctx) => await ctx.step('only', () => void ran.push('only')) } } });
    const jobId = await enqueue(state, worker, 'demo');
    await state.run("UPDATE jobs SET state = 'running', attempts = 1, lease_owner = 'gone:1:x', lease_expires_at = ? WHERE job_id = ?", new Date(Date.now() + 150).toISOString(), jobId);
    assert.deepEqual(await worker.start(), { taken_over: [], started: [], failed: [] }, 'the lease has not run out yet');
    await until(async () => (await jobRow(state, jobId))!.state === 'succeeded', 'the takeover');
    assert.deepEqual([ran, (await jobRow(state, jobId))!.attempts], [['only'], 2]);
    await worker.close();
    await state.close();
  });

  it('a started worker looks again every lease period: another instance\'s jobs that appeared after it started are taken over or started without a kick or a drain', async () => {
    const state = await openTestState();
    const ran: string[] = [];
    const worker = new JobWorker({ state, handlers: { demo: { run: async (ctx) => await ctx.step('only', () => void ran.push(ctx.job.job_id)) } }, lookEveryMs: 50 });
    assert.deepEqual(await worker.start(), { taken_over: [], started: [], failed: [] }, 'nothing to claim, and so no wake-up set');
    // Another instance's: one leased by a process killed inside it, one it queued and died before starting.
    const leased = await enqueue(state, worker, 'demo');
    await state.run("UPDATE jobs SET state = 'running', attempts = 1, lease_owner = 'other-host:1:x', lease_expires_at = ? WHERE job_id = ?", new Date(Date.now() + 150).toISOString(), leased);
    const queued = await enqueue(state, worker, 'demo');
    await until(async () => (await jobRow(state, leased))!.state === 'succeeded' && (await jobRow(state, queued))!.state === 'succeeded', 'both jobs, found by the look');
    assert.deepEqual(ran.sort(), [leased, queued].sort());
    assert.deepEqual([(await jobRow(state, leased))!.attempts, (await jobRow(state, queued))!.attempts], [2, 1], 'the takeover is the leased job\'s second attempt');
    await worker.close();
    await state.close();
  });

  it('a job left on its last attempt by a stopped worker ends failed when taken over, saying so', async () => {
    const state = await openTestState();
    const clock = manualClock();
    const worker = new JobWorker({ state, handlers: { demo: { run: async () => null } }, leaseMs: 1000, clock: clock.now });
    const jobId = await enqueue(state, worker, 'demo', {}, 2);
    await state.run("UPDATE jobs SET state = 'running', attempts = 2, lease_owner = 'gone:1:x', lease_expires_at = '2026-06-10T00:00:00.500Z' WHERE job_id = ?", jobId);
    clock.advance(1000);
    assert.deepEqual((await worker.drain()).failed, [jobId]);
    const job = (await jobRow(state, jobId))!;
    assert.equal(job.state, 'failed');
    assert.match(job.error!, /The worker running its last attempt \(2 of 2\) stopped before it finished/);
    await state.close();
  });

  it('waits on a person without spending an attempt, and a decision recorded before it parks is not missed', async () => {
    const state = await openTestState();
    let decided = false;
    const handler: JobHandler = {
      async run(ctx) {
        await ctx.step('before', () => null);
        await ctx.waitUnless(() => decided);
        await ctx.step('after', () => null);
        return 'done';
      },
    };
    const worker = new JobWorker({ state, handlers: { ask: handler } });
    const jobId = await enqueue(state, worker, 'ask');
    await worker.kick();
    await worker.idle();
    const attempts = async () => {
      const job = (await jobRow(state, jobId))!;
      return [job.state, job.attempts, job.attempts_given_back];
    };
    assert.deepEqual(await attempts(), ['waiting', 1, 1], 'it ran once: the claim is counted, and given back');
    await worker.kick();
    assert.equal((await jobRow(state, jobId))!.state, 'waiting', 'a waiting job is not claimed');
    decided = true;
    await state.run("UPDATE jobs SET state = 'queued' WHERE job_id = ?", jobId);
    await worker.kick();
    await worker.idle();
    assert.deepEqual(await attempts(), ['succeeded', 2, 1], 'the resume is the second attempt');
    await state.close();
  });

  it('attempts count every claim, parked ones included, while only failures count against the cap', async () => {
    const state = await openTestState();
    const clock = manualClock();
    let decided = false;
    let failures = 0;
    const changes: JobChange['to'][] = [];
    const handler: JobHandler = {
      async run(ctx) {
        await ctx.waitUnless(() => decided);
        await ctx.step('work', () => {
          if (failures-- > 0) throw new Error('provider refused');
          return null;
        });
        return 'done';
      },
      changed: async (_job, change) => void changes.push(change.to),
    };
    const worker = new JobWorker({ state, handlers: { ask: handler }, clock: clock.now, retryBaseMs: 1000 });
    // Two attempts may fail; it waits on a person twice first (parked, then queued again undecided).
    const jobId = await enqueue(state, worker, 'ask', {}, 2);
    for (const round of [1, 2]) {
      await worker.kick();
      await worker.idle();
      assert.deepEqual([(await jobRow(state, jobId))!.state, (await jobRow(state, jobId))!.attempts], ['waiting', round]);
      await state.run("UPDATE jobs SET state = 'queued' WHERE job_id = ?", jobId);
    }
    decided = true;
    failures = 1;
    await worker.kick();
    await worker.idle();
    let job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.run_after], ['queued', 3, '2026-06-10T00:00:01.000Z'], 'the first failure: retried after the first back-off, not failed as the third claim of two');
    clock.advance(1000);
    await worker.kick();
    await worker.idle();
    job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.attempts_given_back], ['succeeded', 4, 2]);
    assert.deepEqual(changes, ['running', 'waiting', 'running', 'waiting', 'running', 'queued', 'running', 'succeeded']);
    await state.close();
  });

  it('a stop request ends a running job at its next step boundary, and a queued one at once', async () => {
    const state = await openTestState();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const handler: JobHandler = {
      async run(ctx) {
        await ctx.step('one', async () => {
          ran.push('one');
          await held;
        });
        await ctx.step('two', () => void ran.push('two'));
      },
    };
    const worker = new JobWorker({ state, handlers: { slow: handler }, concurrency: 1 });
    const ids = [await enqueue(state, worker, 'slow'), await enqueue(state, worker, 'slow')];
    await worker.kick();
    await until(() => ran.length === 1, 'step one');
    const states = await Promise.all(ids.map(async (id) => (await jobRow(state, id))!.state));
    const running = ids[states.indexOf('running')]!;
    const queued = ids.find((id) => id !== running)!;
    assert.equal(await worker.requestStop(queued), 'stopped');
    assert.equal(await worker.requestStop(running), 'running');
    release();
    await worker.idle();
    assert.deepEqual(ran, ['one'], 'step two never began');
    assert.deepEqual([(await jobRow(state, running))!.state, (await jobRow(state, queued))!.state], ['stopped', 'stopped']);
    assert.equal((await state.get<{ n: number }>("SELECT COUNT(*) AS n FROM job_steps WHERE job_id = ? AND completed_at IS NOT NULL", running))!.n, 1, 'the step in progress completed and was recorded');
    await state.close();
  });

  it('on close, a running job hands its lease back at the next boundary, queued again with its attempt given back', async () => {
    const state = await openTestState();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const handler: JobHandler = {
      async run(ctx) {
        await ctx.step('one', () => held);
        await ctx.step('two', () => null);
      },
    };
    const worker = new JobWorker({ state, handlers: { slow: handler } });
    const jobId = await enqueue(state, worker, 'slow');
    await worker.kick();
    const closing = worker.close(5000);
    release();
    await closing;
    const job = (await jobRow(state, jobId))!;
    assert.deepEqual([job.state, job.attempts, job.attempts_given_back, job.lease_owner, job.progress_done], ['queued', 1, 1, null, 1]);
    await state.close();
  });
});
