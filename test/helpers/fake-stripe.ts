import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for Stripe on 127.0.0.1, speaking the parts of Stripe's API the checkout uses, in Stripe's
 * wire format (docs.stripe.com/api): requests form-encoded with bracketed keys (`line_items[0][price_data]
 * [currency]=aud`), a bearer secret key, `Idempotency-Key` replays (same key and parameters: the first reply
 * again, with `Idempotent-Replayed: true`; other parameters: 400 `idempotency_error`), and errors as
 * `{error: {type, code?, param?, message}}` with Stripe's statuses.
 *
 * - `POST /v1/checkout/sessions` (mode `payment`, `line_items` with `price_data`, `success_url`, `expires_at`
 *   30 minutes to 24 hours ahead, `client_reference_id`, `metadata`) → an open Checkout Session whose `url`
 *   is this server's hosted page;
 * - `GET /v1/checkout/sessions/{id}`; `POST /v1/checkout/sessions/{id}/expire` (only an open session);
 * - the hosted page `GET /c/pay/{id}`, a form whose "Pay" completes the session (status `complete`,
 *   payment_status `paid`), delivers `checkout.session.completed` to the webhook address, signed with the
 *   endpoint secret as Stripe signs (`stripe.webhooks.generateTestHeaderString`), and sends the payer to
 *   `success_url`; "Cancel" goes to `cancel_url`.
 * Used by the checkout tests and by `npm run fake-payments`, which lets a person pay from a fresh clone.
 */

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where events are delivered (the service's webhook route); none: events are only recorded. */
  webhookUrl?: string;
  /** The clock sessions are created and expire on (default the system clock). */
  now?: () => Date;
  port?: number;
}

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export type FakeFailure = { status: 500; type: 'api_error' } | { status: 429; type: 'rate_limit_error' } | { status: 402; type: 'card_error' };

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: the API base (`SVC_STRIPE_API_BASE`) and the hosted pages' origin. */
  origin: string;
  sessions: Map<string, Stripe.Checkout.Session>;
  /** Every API request, in order. */
  requests: FakeRequest[];
  /** Every event made, delivered or not, with the webhook's answer when delivered. */
  events: { event: Stripe.Event; deliveredStatus: number | null }[];
  /** The next `count` API requests fail with `failure`. */
  failNext(count: number, failure: FakeFailure): void;
  /** An event about the session as it is now (`type` e.g. `checkout.session.completed`), not delivered. */
  eventFor(sessionId: string, type: string): Stripe.Event;
  /** The Stripe-Signature header for `payload`, signed at `timestamp` (seconds; default now) with `secret` (default the endpoint's). */
  sign(payload: string, timestamp?: number, secret?: string): string;
  /** Where events go from now on (a server started after the fake). */
  deliverTo(webhookUrl: string): void;
  /** What "Pay" on the hosted page does, without the page: completes the session and delivers its event. */
  pay(sessionId: string): Promise<Stripe.Event>;
  close(): Promise<void>;
}

/**
 * Stripe's form encoding read back into objects (`a[b][0][c]=v` → `{a: {b: [{c: 'v'}]}}`). Hand-written:
 * the repository has no query-string library that reads bracketed keys, and these are a dozen lines.
 */
export function decodeStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      container[part] ??= /^\d+$/.test(parts[index + 1]!) ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return root;
}

const stripeError = (res: ServerResponse, status: number, error: { type: string; message: string; code?: string; param?: string }) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}` });
  res.end(JSON.stringify({ error }));
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const now = options.now ?? (() => new Date());
  const seconds = () => Math.floor(now().getTime() / 1000);
  const sessions = new Map<string, Stripe.Checkout.Session>();
  const requests: FakeRequest[] = [];
  const events: FakeStripe['events'] = [];
  const replies = new Map<string, { paramsHash: string; status: number; body: string }>();
  const failures: FakeFailure[] = [];
  let origin = '';
  let webhookUrl = options.webhookUrl;

  const sign = (payload: string, timestamp = seconds(), secret = options.webhookSecret) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  function eventFor(sessionId: string, type: string): Stripe.Event {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: seconds(),
      data: { object: structuredClone(session) },
      livemode: false,
      pending_webhooks: webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  async function deliver(event: Stripe.Event): Promise<void> {
    const record = { event, deliveredStatus: null as number | null };
    events.push(record);
    if (!webhookUrl) return;
    const payload = JSON.stringify(event, null, 2);
    try {
      const answer = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': sign(payload) }, body: payload });
      record.deliveredStatus = answer.status;
      await answer.body?.cancel();
    } catch {
      record.deliveredStatus = 0;
    }
  }

  async function pay(sessionId: string): Promise<Stripe.Event> {
    const session = sessions.get(sessionId);
    if (!session || session.status !== 'open') throw new Error(`session ${sessionId} is not open`);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: `pi_${randomBytes(12).toString('hex')}` });
    const event = eventFor(sessionId, 'checkout.session.completed');
    await deliver(event);
    return event;
  }

  function createSession(params: Record<string, unknown>, res: ServerResponse): { status: number; body: string } | null {
    const invalid = (param: string, message: string) => {
      stripeError(res, 400, { type: 'invalid_request_error', param, message });
      return null;
    };
    if (params['mode'] !== 'payment') return invalid('mode', 'This fake supports only `mode=payment`.');
    const items = params['line_items'] as { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } }[] | undefined;
    const item = items?.[0];
    if (!item || items!.length !== 1) return invalid('line_items', 'Exactly one line item is expected.');
    const unitAmount = Number(item.price_data?.unit_amount);
    if (!item.price_data?.currency || !Number.isInteger(unitAmount) || unitAmount < 1) return invalid('line_items[0][price_data][unit_amount]', 'Invalid integer: unit_amount must be a positive whole number of the smallest currency unit.');
    if (!item.price_data.product_data?.name) return invalid('line_items[0][price_data][product_data][name]', 'Missing required param: line_items[0][price_data][product_data][name].');
    if (typeof params['success_url'] !== 'string') return invalid('success_url', 'Missing required param: success_url.');
    const expiresAt = params['expires_at'] === undefined ? seconds() + 24 * 3600 : Number(params['expires_at']);
    if (!(expiresAt >= seconds() + 30 * 60 && expiresAt <= seconds() + 24 * 3600)) return invalid('expires_at', 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.');
    const quantity = Number(item.quantity ?? 1);
    const id = `cs_test_${randomBytes(24).toString('base64url')}`;
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      cancel_url: (params['cancel_url'] as string | undefined) ?? null,
      client_reference_id: (params['client_reference_id'] as string | undefined) ?? null,
      created: seconds(),
      currency: item.price_data.currency,
      expires_at: expiresAt,
      livemode: false,
      metadata: (params['metadata'] as Record<string, string> | undefined) ?? {},
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params['success_url'],
      url: `${origin}/c/pay/${id}`,
    } as unknown as Stripe.Checkout.Session;
    sessions.set(id, session);
    return { status: 200, body: JSON.stringify(session) };
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const raw = req.method === 'POST' ? await bodyOf(req) : '';
    const params = decodeStripeForm(raw);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? 'GET', path, params, idempotencyKey });
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
      const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      stripeError(res, 401, { type: 'invalid_request_error', message: given ? `Invalid API Key provided: ${given.slice(0, 8)}****${given.slice(-4)}` : 'You did not provide an API key.' });
      return;
    }
    const failure = failures.shift();
    if (failure) {
      stripeError(res, failure.status, { type: failure.type, message: failure.type === 'api_error' ? 'An unknown error occurred in the fake.' : failure.type === 'rate_limit_error' ? 'Too many requests hit the API too quickly.' : 'Your card was declined.' });
      return;
    }
    if (req.method === 'POST' && idempotencyKey) {
      const paramsHash = createHash('sha256').update(`${path}\n${raw}`).digest('hex');
      const earlier = replies.get(idempotencyKey);
      if (earlier && earlier.paramsHash !== paramsHash) {
        stripeError(res, 400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` });
        return;
      }
      if (earlier) {
        res.writeHead(earlier.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true', 'idempotency-key': idempotencyKey });
        res.end(earlier.body);
        return;
      }
    }
    let reply: { status: number; body: string } | null = null;
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    const read = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      reply = createSession(params, res);
      if (!reply) return;
    } else if ((req.method === 'POST' && expire) || (req.method === 'GET' && read)) {
      const id = decodeURIComponent((expire ?? read)![1]!);
      const session = sessions.get(id);
      if (!session) {
        stripeError(res, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: `No such checkout.session: '${id}'` });
        return;
      }
      if (expire) {
        if (session.status !== 'open') {
          stripeError(res, 400, { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".` });
          return;
        }
        Object.assign(session, { status: 'expired' });
        void deliver(eventFor(id, 'checkout.session.expired'));
      }
      reply = { status: 200, body: JSON.stringify(session) };
    } else {
      stripeError(res, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
      return;
    }
    if (req.method === 'POST' && idempotencyKey) replies.set(idempotencyKey, { paramsHash: createHash('sha256').update(`${path}\n${raw}`).digest('hex'), ...reply });
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(7).toString('hex')}` });
    res.end(reply.body);
  }

  async function hostedPage(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const session = sessions.get(id);
    const page = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test checkout</title></head><body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto">${body}</body></html>`);
    };
    if (!session) return page(404, '<h1>No such checkout</h1>');
    if (req.method === 'POST') {
      await bodyOf(req);
      if (session.status !== 'open') return page(410, `<h1>This checkout is ${escapeHtml(String(session.status))}</h1>`);
      await pay(id);
      res.writeHead(303, { location: session.success_url ?? '/' });
      res.end();
      return;
    }
    const amount = `${(session.currency ?? '').toUpperCase()} ${((session.amount_total ?? 0) / 100).toFixed(2)}`;
    const name = escapeHtml(session.metadata?.['bid_id'] ?? session.client_reference_id ?? '');
    if (session.status !== 'open') return page(410, `<h1>This checkout is ${escapeHtml(String(session.status))}</h1>`);
    page(
      200,
      `<h1>Test checkout (no real money)</h1><p>Bid preparation for <code>${name}</code>: <strong>${escapeHtml(amount)}</strong>.</p>` +
        `<form method="post"><button type="submit">Pay ${escapeHtml(amount)}</button></form>` +
        (session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and go back</a></p>` : ''),
    );
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const hosted = /^\/c\/pay\/([^/]+)$/.exec(path);
    const handled = hosted ? hostedPage(req, res, decodeURIComponent(hosted[1]!)) : api(req, res, path);
    handled.catch((error: unknown) => {
      if (!res.headersSent) stripeError(res, 500, { type: 'api_error', message: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    sessions,
    requests,
    events,
    failNext: (count, failure) => failures.push(...Array.from({ length: count }, () => failure)),
    eventFor,
    sign,
    deliverTo: (url) => void (webhookUrl = url),
    pay,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
