import { z } from 'zod';
import { notConfigured, providerGet, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * ABN Lookup, the Australian Business Register's public web services, through their JSON endpoints:
 * `AbnDetails.aspx?abn=…`, `AcnDetails.aspx?acn=…` and `MatchingNames.aspx?name=…&maxResults=…`, each with the
 * operator's `guid` and `callback=callback`, answering JSONP: `callback({...})`.
 *
 * Why these rather than the SOAP/XML ABRXMLSearch service: they answer everything this checker reads (the
 * ABN's status and its date, the ACN, entity, type and business names; name search with a score) in one small
 * body, with the same GUID, and need no SOAP envelope or XML namespaces. Their field lists are as several
 * public clients read them and as checkers-research §9.5 records: `Abn`, `AbnStatus` ("Active" | "Cancelled"),
 * `AbnStatusEffectiveFrom`, `Acn`, `EntityName`, `EntityTypeCode`, `EntityTypeName`, `BusinessName[]`, `Gst`
 * (a date, or empty), `Message` (the error text; an unknown or malformed number answers an empty `Abn`);
 * `Names[] {Abn, AbnStatus, IsCurrent, Name, NameType, Postcode, Score, State}`. Errors come back as HTTP 200
 * with `Message` set (an unregistered GUID: "The GUID entered is not recognised as a Registered Party").
 */

export const ABN_LOOKUP_DEFAULT_URL = 'https://abr.business.gov.au/json/';
const PROVIDER = 'ABN Lookup';

/** An ABN's entry as ABN Lookup answers it now. */
export interface AbnLookupEntry {
  abn: string;
  abn_status: 'active' | 'cancelled' | null;
  abn_status_from: string | null;
  acn: string | null;
  entity_name: string | null;
  entity_type: string | null;
  business_names: string[];
}

/** One name ABN Lookup's name search returned, with its own 0–100 score. */
export interface AbnLookupName {
  abn: string;
  name: string;
  name_type: string | null;
  current: boolean;
  abn_status: 'active' | 'cancelled' | null;
  score: number | null;
}

export interface AbnLookup {
  /** False when no GUID is configured: every call then answers `not_configured`. */
  readonly configured: boolean;
  /** The ABN's entry, or null when ABN Lookup holds none. */
  byAbn(abn: string): Promise<ProviderResult<AbnLookupEntry | null>>;
  /** The entry of the ABN held by the company with this ACN, or null when ABN Lookup holds none. */
  byAcn(acn: string): Promise<ProviderResult<AbnLookupEntry | null>>;
  byName(name: string, maxResults: number): Promise<ProviderResult<AbnLookupName[]>>;
}

const text = z.string().nullish().transform((value) => (value ?? '').trim());
const DetailsReply = z.object({
  Abn: text,
  AbnStatus: text,
  AbnStatusEffectiveFrom: text,
  Acn: text,
  EntityName: text,
  EntityTypeName: text,
  BusinessName: z.array(z.string()).nullish().transform((names) => names ?? []),
  Message: text,
});
const NamesReply = z.object({
  Message: text,
  Names: z
    .array(z.object({ Abn: text, AbnStatus: text, IsCurrent: z.boolean().nullish(), Name: text, NameType: text, Score: z.number().nullish() }))
    .nullish()
    .transform((names) => names ?? []),
});

export interface AbnLookupOptions {
  /** The GUID the ABR issued on registration; without one the client is not configured. */
  guid: string | undefined;
  /** Default `https://abr.business.gov.au/json/`. */
  baseUrl?: string;
  transport: ProviderTransport;
}

export function createAbnLookup(options: AbnLookupOptions): AbnLookup {
  const guid = options.guid?.trim();
  const base = new URL(options.baseUrl ?? ABN_LOOKUP_DEFAULT_URL);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const unset = notConfigured(PROVIDER, 'SVC_ABN_LOOKUP_GUID');

  async function call<T>(endpoint: string, parameters: Record<string, string>, schema: z.ZodType<T>): Promise<ProviderResult<T>> {
    const url = new URL(endpoint, base);
    for (const [name, value] of Object.entries({ ...parameters, callback: 'callback', guid: guid! })) url.searchParams.set(name, value);
    const answered = await providerGet(options.transport, url, { accept: 'application/javascript, application/json' });
    if (!answered.ok) return answered;
    if (answered.value.status !== 200) return { ok: false, reason: 'refused', detail: `${PROVIDER} refused the request with HTTP ${answered.value.status}.` };
    const payload = unwrapJsonp(answered.value.body);
    const parsed = payload === undefined ? null : schema.safeParse(payload);
    if (!parsed?.success) return { ok: false, reason: 'unreachable', detail: `${PROVIDER} answered in a shape this service does not read.` };
    return { ok: true, value: parsed.data };
  }

  /** A `Message` about the GUID is the operator's problem (refused); any other message means no entry. */
  function refusal(message: string): ProviderResult<never> | null {
    return /guid/i.test(message) ? { ok: false, reason: 'refused', detail: `${PROVIDER} refused the configured GUID: ${message}` } : null;
  }

  async function details(endpoint: string, parameters: Record<string, string>): Promise<ProviderResult<AbnLookupEntry | null>> {
    if (!guid) return unset;
    const answer = await call(endpoint, parameters, DetailsReply);
    if (!answer.ok) return answer;
    const reply = answer.value;
    const refused = refusal(reply.Message);
    if (refused) return refused;
    const abn = reply.Abn.replace(/\s/g, '');
    if (abn === '') return { ok: true, value: null };
    return {
      ok: true,
      value: {
        abn,
        abn_status: abnStatus(reply.AbnStatus),
        abn_status_from: /^\d{4}-\d{2}-\d{2}/.test(reply.AbnStatusEffectiveFrom) ? reply.AbnStatusEffectiveFrom.slice(0, 10) : null,
        acn: reply.Acn.replace(/\s/g, '') || null,
        entity_name: reply.EntityName || null,
        entity_type: reply.EntityTypeName || null,
        business_names: [...new Set(reply.BusinessName.map((name) => name.trim()).filter((name) => name !== ''))],
      },
    };
  }

  return {
    configured: Boolean(guid),
    byAbn: (abn) => details('AbnDetails.aspx', { abn }),
    byAcn: (acn) => details('AcnDetails.aspx', { acn }),
    async byName(name, maxResults) {
      if (!guid) return unset;
      const answer = await call('MatchingNames.aspx', { name, maxResults: String(maxResults) }, NamesReply);
      if (!answer.ok) return answer;
      const refused = refusal(answer.value.Message);
      if (refused) return refused;
      return {
        ok: true,
        value: answer.value.Names.filter((entry) => entry.Abn !== '' && entry.Name !== '').map((entry) => ({
          abn: entry.Abn.replace(/\s/g, ''),
          name: entry.Name,
          name_type: entry.NameType || null,
          current: entry.IsCurrent ?? true,
          abn_status: abnStatus(entry.AbnStatus),
          score: entry.Score ?? null,
        })),
      };
    },
  };
}

function abnStatus(status: string): 'active' | 'cancelled' | null {
  if (/^active$/i.test(status)) return 'active';
  if (/^cancelled$/i.test(status)) return 'cancelled';
  return null;
}

/** The object inside `callback({...})` (the callback named in the request, `;` optional), or undefined. */
export function unwrapJsonp(body: string): unknown {
  const wrapped = /^\s*[A-Za-z_$][\w$]*\(([\s\S]*)\)\s*;?\s*$/.exec(body);
  try {
    return JSON.parse(wrapped ? wrapped[1]! : body);
  } catch {
    return undefined;
  }
}
