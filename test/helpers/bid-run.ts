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
  let retry: number | null = null;
  const events: SseEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    if (block.trim() === '') continue;
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'retry') retry = Number(value);
      else if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ id, event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return { retry, events };
}

/** Polls `check` until it holds, failing after `ms`. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
