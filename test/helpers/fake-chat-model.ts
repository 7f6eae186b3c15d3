import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat completions server on 127.0.0.1 for the drafts' tests, speaking the real
 * wire format (OpenAI API reference, "Create chat completion"): `POST /v1/chat/completions` with
 * `{model, messages: [{role, content}]}` and a bearer key; the reply
 * `{id, object: "chat.completion", created, model, choices: [{index, message: {role: "assistant", content}, finish_reason}], usage}`.
 * Any other path is 404 `{error: {message, type}}`, as the API answers.
 */

export interface ChatRequest {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

export interface FakeChatModel {
  /** The API root to configure, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: ChatRequest[];
  /** The reply content for a request; by default one echoing the first passage number. */
  reply: (request: ChatRequest) => string;
  /** When set, every call answers this HTTP status with an error body instead. */
  failWith: number | null;
  /** When set, awaited before a call is answered: a test holds a reply (the caller waits, as on a slow model). */
  hold: ((request: ChatRequest) => Promise<void>) | null;
  close(): Promise<void>;
}

export async function startFakeChatModel(): Promise<FakeChatModel> {
  const fake: Omit<FakeChatModel, 'baseUrl' | 'close'> = {
    requests: [],
    reply: () => 'We hold the certification the requirement asks for [1].',
    failWith: null,
    hold: null,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      const request: ChatRequest = { authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'] };
      fake.requests.push(request);
      if (fake.hold) await fake.hold(request);
      // The caller went away while the reply was held (its process was killed): nothing to answer.
      if (res.destroyed || req.socket.destroyed) return;
      if (fake.failWith !== null) return send(fake.failWith, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
      send(200, {
        id: `chatcmpl-${fake.requests.length}`,
        object: 'chat.completion',
        created: 1_790_000_000,
        model: request.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: fake.reply(request) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
