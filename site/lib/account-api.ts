// The pages' calls to the API from the browser: same origin, so the HttpOnly session cookie travels with
// each call. Every reply is read through a schema of the fields a page shows; a refusal becomes the API's
// own `detail` sentence, so a page shows either what it asked for or why not.
import * as z from 'zod/mini';

export const SIGN_IN_PATH = '/account/sign-in/';
export const ACCOUNT_PATH = '/account/';

/** The sign-in page, returning to `next` (a path on this site) once the emailed link is followed. */
export function signInHref(next: string): string {
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(next)}`;
}

export type Reply<T> = { ok: true; value: T } | { ok: false; status: number; detail: string };

const ErrorReply = z.object({ detail: z.string() });

// Sentences of an API refusal meant for a program, not a person on the site: routes, headers, keys.
const FOR_PROGRAMS = /\/v1\/|\bSvc-|Idempotency-Key|Bearer|\bheader\b/;

/** The API's refusal as a reader of the site should read it: the sentences about routes and headers left out. */
export function forReaders(detail: string): string {
  const sentences = detail.split(/(?<=[.!?])\s+/);
  const kept = sentences.filter((sentence) => !FOR_PROGRAMS.test(sentence));
  return kept.length === 0 ? detail : kept.join(' ');
}

/** Calls the API and reads its reply with `schema`; never throws. */
export async function callApi<T>(schema: z.ZodMiniType<T>, path: string, init: { method?: string; body?: unknown } = {}): Promise<Reply<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  } catch {
    return { ok: false, status: 0, detail: 'The service could not be reached. Check your connection and try again.' };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const refusal = ErrorReply.safeParse(body);
    return { ok: false, status: response.status, detail: refusal.success ? forReaders(refusal.data.detail) : `The service answered ${response.status}. Try again in a minute.` };
  }
  const read = schema.safeParse(body);
  if (!read.success) return { ok: false, status: response.status, detail: 'The service sent a reply this page cannot read. Reload the page and try again.' };
  return { ok: true, value: read.data };
}

export const Account = z.object({ email: z.string(), session_expires_at: z.string() });
export type Account = z.infer<typeof Account>;

/** GET /v1/auth/session: always 200, so asking never logs a refusal in a signed-out reader's console. */
export const Session = z.object({ signed_in: z.boolean(), email: z.optional(z.string()), session_expires_at: z.optional(z.string()) });
export const SESSION_PATH = '/v1/auth/session';

/** The signed-in account, or null when nobody is signed in or the service cannot say. */
export async function signedInAccount(): Promise<Account | null> {
  const reply = await callApi(Session, SESSION_PATH);
  if (!reply.ok || !reply.value.signed_in || reply.value.email === undefined || reply.value.session_expires_at === undefined) return null;
  return { email: reply.value.email, session_expires_at: reply.value.session_expires_at };
}

export const LoginSent = z.object({ sent_to: z.string(), valid_for_seconds: z.number() });

export const Watch = z.object({
  watch_id: z.string(),
  kind: z.string(),
  criteria: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type Watch = z.infer<typeof Watch>;
export const WatchList = z.object({ watches: z.array(Watch), per_kind: z.number() });
export const WatchSaved = z.object({ watch_id: z.string() });
export const WatchDeleted = z.object({ deleted: z.literal(true) });
export const SignedOut = z.object({ signed_out: z.literal(true) });

export const ApiKey = z.object({
  key_id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scope: z.string(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  disabled: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const KeyList = z.object({ keys: z.array(ApiKey) });
export const CreatedKey = z.object({ key_id: z.string(), name: z.string(), api_key: z.optional(z.string()) });
export const KeyRevoked = z.object({ key_id: z.string(), revoked_at: z.string() });

export const BuyerNamed = z.object({ buyer: z.object({ name: z.string(), slug: z.string() }) });
export const TenderNamed = z.object({ page_key: z.string(), title: z.string() });

export const PortalLink = z.object({ url: z.string(), portal_name: z.string(), link_is_listing: z.boolean() });

export const MatchResult = z.object({
  page_key: z.string(),
  title: z.string(),
  buyer: z.optional(z.string()),
  jurisdiction: z.string(),
  closing_date: z.optional(z.string()),
  score: z.optional(z.number()),
  why: z.optional(z.array(z.string())),
  gaps: z.optional(z.array(z.string())),
});
export type MatchResult = z.infer<typeof MatchResult>;
export const MatchReply = z.object({
  company: z.object({ trades: z.array(z.object({ name: z.string() })), capabilities: z.array(z.string()) }),
  score_meaning: z.string(),
  degraded: z.boolean(),
  degraded_reason: z.optional(z.string()),
  matched: z.number(),
  withheld: z.number(),
  considered: z.number(),
  results: z.array(MatchResult),
});
export type MatchReply = z.infer<typeof MatchReply>;
