// Server-Sent Events read from a fetch reply: the checkers stream a POST, which the browser's EventSource
// (GET only) cannot send. The API writes only `event:` and `data:` lines (hono's writeSSE), one event per
// blank-line-ended block.

export interface StreamEvent {
  event: string;
  data: string;
}

/** Splits text as it arrives into events; `push` returns the events completed by the new text. */
export function eventParser(): { push(text: string): StreamEvent[] } {
  let buffer = '';
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n');
      const events: StreamEvent[] = [];
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length > 0) events.push({ event, data: data.join('\n') });
      }
      return events;
    },
  };
}

/** Every event of a streamed reply, in order, as it arrives. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const parser = eventParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(`${decoder.decode()}\n\n`);
  } finally {
    reader.releaseLock();
  }
}
