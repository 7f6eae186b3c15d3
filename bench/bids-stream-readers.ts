/**
 * The clients of row (q) in a process of their own (bench/bids-bench.ts forks it): each bid's run started over
 * HTTP, its event stream read to the end, and each action it raises approved as its event arrives, so that
 * parsing 50 streams does not run on the server's event loop and count as delivery delay. Arrival instants are
 * wall-clock milliseconds (`performance.timeOrigin + performance.now()`), comparable with the server process's.
 *
 * Protocol over the IPC channel: this process sends `{kind: 'ready'}`; the bench sends a `ReadersStart`; this
 * process answers `{kind: 'done', outcomes}` or `{kind: 'failed', detail}` and exits.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ReadersStart {
  kind: 'start';
  baseUrl: string;
  /** The session cookie of the bids' owner, and the origin its writes must come from. */
  cookie: string;
  origin: string;
  bidIds: string[];
}

export interface RunOutcome {
  bidId: string;
  state: string;
  stepsCompleted: number;
  /** Each event's seq and the wall-clock instant its block was read. */
  arrivals: { seq: number; at: number }[];
  /** Events appended before this were waiting when the stream connected: their delay is not delivery's. */
  connectedAt: number;
}

export type ReadersReply = { kind: 'ready' } | { kind: 'done'; outcomes: RunOutcome[] } | { kind: 'failed'; detail: string };

const wallNow = () => performance.timeOrigin + performance.now();

/** Starts the bid's run, reads its event stream to the end while approving each action it raises, and returns what arrived when. */
async function followRun(start: ReadersStart, bidId: string): Promise<RunOutcome> {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${start.baseUrl}${path}`, {
      method,
      headers: { cookie: start.cookie, origin: start.origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const begun = await call('POST', `/v1/bids/${bidId}/runs`, {});
  if (begun.status !== 201) throw new Error(`bench bids: POST runs answered ${begun.status} ${JSON.stringify(begun.body)}`);
  const runId = begun.body.run_id as string;
  const arrivals: { seq: number; at: number }[] = [];
  let stepsCompleted = 0;
  // Approves each action the run raises (emails, pack fetches, model use) as its event arrives, so that no
  // run parks; not awaited in the loop, so reading the stream is never held up by an approval.
  const approvals: Promise<{ status: number; body: Json }>[] = [];
  const response = await fetch(`${start.baseUrl}/v1/bids/${bidId}/runs/${runId}/events?since_seq=0`, { headers: { cookie: start.cookie } });
  const connectedAt = wallNow();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  // A run still streaming after ten minutes is stuck: the stream is cut and the run counts as not completed.
  const stuck = setTimeout(() => void reader.cancel(), 600_000);
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const at = wallNow();
    buffered += value;
    const blocks = buffered.split('\n\n');
    buffered = blocks.pop()!;
    for (const block of blocks) {
      const id = /^id: (\d+)$/m.exec(block);
      if (id === null) continue;
      arrivals.push({ seq: Number(id[1]), at });
      const kind = /^event: (\w+)$/m.exec(block)?.[1];
      if (kind === 'step_completed') stepsCompleted++;
      if (kind === 'action_raised') {
        const { action_id: actionId } = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { action_id: string };
        approvals.push(call('POST', `/v1/bids/${bidId}/actions/${actionId}/approve`));
      }
    }
  }
  clearTimeout(stuck);
  const refused = (await Promise.all(approvals)).filter((approval) => approval.status !== 200);
  if (refused.length > 0) throw new Error(`bench bids: an approval answered ${JSON.stringify(refused[0])}`);
  const run = (await call('GET', `/v1/bids/${bidId}/runs/${runId}`)).body;
  return { bidId, state: run.state as string, stepsCompleted, arrivals, connectedAt };
}

const send = (reply: ReadersReply) => new Promise<void>((resolve, reject) => process.send!(reply, (error: Error | null) => (error ? reject(error) : resolve())));

if (import.meta.main) {
  if (!process.send) throw new Error('bench/bids-stream-readers.ts is forked by bench/bids-bench.ts, with an IPC channel');
  process.once('message', (message: ReadersStart) => {
    void Promise.all(message.bidIds.map((bidId) => followRun(message, bidId)))
      .then(
        async (outcomes) => await send({ kind: 'done', outcomes }),
        async (error: unknown) => await send({ kind: 'failed', detail: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      )
      .finally(() => process.disconnect());
  });
  await send({ kind: 'ready' });
}
