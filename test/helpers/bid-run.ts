import assert from 'node:assert/strict';
import type { ChatRequest } from './fake-chat-model.ts';

/**
 * What the bid-run tests share: a small request for quotation written for these tests (three mandatory
 * conditions, two returnable schedules it names but does not include, a contact address), the library
 * documents that answer two of the conditions, the fake model's replies, and a reader of Server-Sent Events.
 */

export const RUN_TENDER = `REQUEST FOR QUOTATION RFQ-2026-41
Footpath renewal, Harbour Street

Enquiries: Jo Smith, Contract Officer, tenders@harbourcouncil.example

1 CONDITIONS
1.1 The Respondent must hold public liability insurance of at least $20 million.
1.2 The Respondent must be certified to ISO 9001 for quality management.
1.3 The Respondent must hold accreditation under the Federal Safety Commissioner scheme.

2 RETURNABLE SCHEDULES
Respondents must complete and return each of the following schedules:
Schedule 1 - Form of Quotation
Schedule 2 - Pricing Schedule
`;

export const RUN_LIBRARY: { name: string; text: string }[] = [
  { name: 'Insurance summary.txt', text: 'Insurance\n\nHarbour Civil holds public liability insurance of $20 million with Harbour Mutual, renewed each July.' },
  { name: 'Quality certificate.txt', text: 'Quality\n\nHarbour Civil has been certified to ISO 9001 for quality management since 2019, audited yearly.' },
];

/**
 * The fake model's replies: the insurance answer cites its passage, the ISO 9001 answer cites nothing (so it
 * is not kept), anything else cites a passage it was not given.
 */
export function runModelReply(request: ChatRequest): string {
  const asked = request.body.messages.at(-1)!.content;
  if (asked.includes('public liability insurance')) return 'We hold public liability insurance of $20 million with Harbour Mutual [1].';
  if (asked.includes('ISO 9001')) return 'We are certified to ISO 9001 and audited every year.';
  return 'We meet this requirement [7].';
}

export interface SseEvent {
  id: string | null;
  event: string;
  data: Record<string, unknown>;
}

/** Reads an event stream to its end: its `retry:` and every event with its id. */
export async function readEventStream(response: Response): Promise<{ retry: number | null; events: SseEvent[] }> {
  const text = await response.text();
  const retry = /^retry: (\d+)$/m.exec(text);
  const events = text.split('\n\n').flatMap((block) => readBlock(block));
  return { retry: retry ? Number(retry[1]) : null, events };
}

/**
 * Polls `check` until it holds, failing after `ms`: a bound that catches a hang, not a speed (two test files run at
 * once, and on the suite's second pass a PostgreSQL server beside them; 20 s was once too short for a whole run).
 */
export async function eventually<T>(check: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Follows an event stream as it arrives: `events` fills while it is open, `ended` settles when it closes or
 * its connection is cut (a killed server), whichever comes first.
 */
export function followEventStream(url: string, headers: Record<string, string>): { events: SseEvent[]; ended: Promise<'closed' | 'cut'> } {
  const events: SseEvent[] = [];
  const ended = (async (): Promise<'closed' | 'cut'> => {
    let buffered = '';
    try {
      const response = await fetch(url, { headers });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'closed';
        buffered += value;
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop()!;
        events.push(...blocks.flatMap((block) => readBlock(block)));
      }
    } catch {
      return 'cut';
    }
  })();
  return { events, ended };
}

function readBlock(block: string): SseEvent[] {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const [field, ...rest] = line.split(':');
    const value = rest.join(':').replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? [{ id, event, data: JSON.parse(data.join('\n')) as Record<string, unknown> }] : [];
}

/**
 * What a run killed inside a step and taken over must show on its event stream: the events seen before the kill
 * and those read from the last one seen add up to the whole log, seq 1, 2, 3, … with no gap or repeat; the run
 * completed after a take-over; no step completed twice; and the step cut off began again once, knowing it had begun.
 */
export function assertResumedRunEvents(seenBeforeKill: SseEvent[], resumed: SseEvent[], whole: SseEvent[], stepAtKill: string): void {
  const ids = (events: SseEvent[]) => events.map((event) => Number(event.id));
  assert.deepEqual([...ids(seenBeforeKill), ...ids(resumed)], ids(whole));
  assert.deepEqual(ids(whole), Array.from({ length: whole.length }, (_, index) => index + 1), 'seq 1, 2, 3, … without a gap or a repeat');
  assert.equal(whole.at(-1)!.event, 'run_completed');
  assert.ok(whole.some((event) => event.event === 'run_resumed' && event.data.taken_over === true), 'the job was taken over from the dead worker');
  const completions = whole.filter((event) => event.event === 'step_completed').map((event) => event.data.step as string);
  assert.equal(new Set(completions).size, completions.length, `a step completed twice: ${completions.join(', ')}`);
  assert.deepEqual(
    whole.filter((event) => event.event === 'step_started' && event.data.step === stepAtKill).map((event) => event.data.again),
    [false, true],
    'the step cut off by the kill began again, once, knowing it had begun before',
  );
  for (const step of ['read_files', 'extract_requirements', 'execute:send_clarification', 'mark_drafted', 'gaps', 'plan', 'compliance', 'message:recap']) assert.ok(completions.includes(step), step);
}
