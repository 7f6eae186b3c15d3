import type { Context, MiddlewareHandler } from 'hono';
import { hasJsonBody, parseJsonBody, type SandboxEnv } from '../schemas/common.ts';

/** What a fixture sees of the request, so a fixture can echo a filename or a field list and stay deterministic. */
export interface SandboxRequest {
  tool: string;
  /** The query string, one value per name. */
  query: Record<string, string>;
  /** The parsed JSON body, the form fields of a multipart or urlencoded body, or undefined without a body. */
  body: unknown;
}

export interface SandboxFixture {
  /** One line for the discovery documents: what the fixture shows. */
  summary: string;
  /** The reply; the sandbox adds `sandbox: true`. The same request must always give the same reply. */
  reply(request: SandboxRequest): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Status of the reply (default 200), for tools whose real reply is 201 or 202. */
  status?: 200 | 201 | 202;
}

export interface Sandbox {
  /** Adds a tool's fixture. Each tool registers once; a second registration is a programming error and throws. */
  register(tool: string, fixture: SandboxFixture): void;
  /** Registered fixtures by tool name, for the discovery documents (agents.md, llms.txt, agent card). */
  fixtures(): { tool: string; summary: string }[];
  /**
   * Answers a sandbox call to `tool` with its fixture, before validation, metering or any work: mount it
   * first among the tool's route middleware. Sets `c.get('sandbox')` either way; a real call goes on.
   */
  middleware(tool: string): MiddlewareHandler<SandboxEnv>;
}

/**
 * The sandbox (spec, Shared input conventions): `sandbox: true` in a JSON body (or a form field
 * `sandbox=true`), `?sandbox=true`, or the header `Svc-Sandbox: true` answers the tool's deterministic fixture
 * labelled `sandbox: true`, free and never metered. One registry per app; each tool registers its fixture
 * where the tool is defined, so a new tool never edits this file. A sandbox call to a tool without a
 * fixture answers 501 `{detail}`: the request was well formed, the service simply has no sandbox reply for
 * it, and retrying will not help (spec, Retry rules: do not retry 501).
 *
 * @example
 * const sandbox = createSandbox();
 * sandbox.register('extract', {
 *   summary: 'A two-page invoice with its number, date and total extracted.',
 *   reply: () => ({ fields: { invoice_number: 'INV-0042', total: '1,250.00' }, pages_read: 2 }),
 * });
 * app.post('/v1/extract', sandbox.middleware('extract'), meter(), extractHandler);
 * // POST /v1/extract?sandbox=true → 200 {"fields":{…},"pages_read":2,"sandbox":true}, header Svc-Sandbox: true
 */
export function createSandbox(): Sandbox {
  const registry = new Map<string, SandboxFixture>();
  return {
    register(tool, fixture) {
      if (registry.has(tool)) throw new Error(`The sandbox already has a fixture for ${tool}; register each tool once.`);
      registry.set(tool, fixture);
    },
    fixtures() {
      return [...registry].map(([tool, fixture]) => ({ tool, summary: fixture.summary })).sort((a, b) => a.tool.localeCompare(b.tool));
    },
    middleware(tool) {
      return async function sandboxMiddleware(c, next) {
        const sandboxed = await isSandboxRequest(c);
        c.set('sandbox', sandboxed);
        if (!sandboxed) return next();
        // Looked up per request: tools may register after the middleware is mounted.
        const fixture = registry.get(tool);
        if (fixture === undefined) {
          return c.json({ detail: `${tool} has no sandbox reply yet; call it without sandbox mode (no sandbox field, query parameter or Svc-Sandbox header).` }, 501);
        }
        const reply = await fixture.reply({ tool, query: c.req.query(), body: await requestBody(c) });
        c.header('Svc-Sandbox', 'true');
        return c.json({ ...reply, sandbox: true }, fixture.status ?? 200);
      };
    },
  };
}

/**
 * Whether this request asks for the sandbox, by any of the three switches. Middleware that runs before
 * `sandbox.middleware` (a meter mounted app-wide, say) calls this to know a call will be free; after it,
 * `c.get('sandbox')` holds the answer.
 */
export async function isSandboxRequest(c: Context): Promise<boolean> {
  const decided: unknown = c.get('sandbox');
  if (typeof decided === 'boolean') return decided;
  if (switchedOn(c.req.header('svc-sandbox')) || switchedOn(c.req.query('sandbox'))) return true;
  const json = await jsonBody(c);
  if (json !== undefined) return isRecord(json) && json['sandbox'] === true;
  const field = (await formBody(c))?.['sandbox'];
  return typeof field === 'string' && switchedOn(field);
}

/** True when a sandbox switch's value (header, query parameter or form field) turns it on: `true`, any case. */
export function switchedOn(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() === 'true';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as the fixture sees it: parsed JSON, else form fields, else undefined. */
async function requestBody(c: Context): Promise<unknown> {
  return (await jsonBody(c)) ?? (await formBody(c));
}

// An unreadable body counts as no body here: the sandbox stays off and the route answers 400 for it.
async function jsonBody(c: Context): Promise<unknown> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || !hasJsonBody(c)) return undefined;
  const body = await parseJsonBody(c);
  return body.kind === 'json' ? body.value : undefined;
}

async function formBody(c: Context): Promise<Record<string, unknown> | undefined> {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'multipart/form-data' && mediaType !== 'application/x-www-form-urlencoded') return undefined;
  try {
    return await c.req.parseBody();
  } catch {
    return undefined;
  }
}
