import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { settleLater } from '../../usage/metered-call.ts';
import type { IntakeDocument } from '../../documents/types.ts';

/**
 * A checker's work answered as Server-Sent Events (spec, Events): `received`, then `inspecting` or `working`
 * heartbeats (each new stage at once, else every `heartbeatMs`), then `result` or `error` (`{detail}`). The
 * caller's weekly unit is settled by what the work came to: counted only for a reply that counts. Shared by
 * both lanes of answer.ts: the analyses of bytes and the checks that ask the outside world.
 */

/** What the work came to: a reply and whether it uses the caller's unit, or a `{detail}` for the error event. */
export type StreamedOutcome = { reply: unknown; counts: boolean } | { detail: string };

export interface StreamedJob {
  /** The `received` event's data. */
  received: unknown;
  heartbeat: 'inspecting' | 'working';
  heartbeatMs: number;
  /** The stage the work is at, for each heartbeat. */
  stage(): string;
  /** Where the job's stage changes are to be told while the stream is open (null once it closes). */
  onStage(emit: (() => void) | null): void;
  settle(): Promise<StreamedOutcome>;
  /** The error event's detail when `settle` throws (the error is logged by the server). */
  failureDetail: string;
}

export function streamJob(c: Context, job: StreamedJob): Response {
  const settleUnit = settleLater(c);
  return streamSSE(c, async (stream) => {
    const started = performance.now();
    const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
    await send('received', job.received);
    const beat = () => void send(job.heartbeat, { stage: job.stage(), elapsed_ms: Math.round(performance.now() - started) });
    job.onStage(beat);
    beat();
    const heartbeat = setInterval(beat, job.heartbeatMs);
    try {
      const outcome = await job.settle();
      if ('detail' in outcome) {
        await settleUnit(false);
        await send('error', { detail: outcome.detail });
      } else {
        await settleUnit(outcome.counts);
        await send('result', outcome.reply);
      }
    } catch (error) {
      await settleUnit(false);
      await send('error', { detail: job.failureDetail });
      throw error;
    } finally {
      clearInterval(heartbeat);
      job.onStage(null);
    }
  });
}

/** A stored reply as a stream: `received`, then `result` at once; never counted. */
export function streamStored(c: Context, received: unknown, stored: unknown): Response {
  const settleUnit = settleLater(c);
  return streamSSE(c, async (stream) => {
    await settleUnit(false);
    await stream.writeSSE({ event: 'received', data: JSON.stringify(received) });
    await stream.writeSSE({ event: 'result', data: JSON.stringify(stored) });
  });
}

/** The `received` event's data: what was read, and whether a stored reply answers. */
export function receivedEvent(documents: IntakeDocument[], cached: boolean) {
  return {
    documents: documents.map((document) => ({ filename: document.filename, sha256: document.sha256, size_bytes: document.bytes.byteLength, media_type: document.mime })),
    cached,
  };
}
