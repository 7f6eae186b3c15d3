import { z } from 'zod';
import { botUserAgent, notConfigured, providerJson, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * Crossref REST API client (wire format: CrossRef/rest-api-doc `rest_api.md` and `api_format.md`; the
 * current documentation is at api.crossref.org): `GET /works/{doi}` for one registered work (404 when the
 * DOI is not Crossref's), `GET /works/{doi}/agency` for which agency registered a DOI Crossref does not hold
 * (DataCite for arXiv, mEDRA, …), and `GET /works?query.bibliographic=…&rows=n` to look up a citation
 * string. Every reply is the envelope `{status: "ok", "message-type", "message-version", message}`.
 *
 * Etiquette: a `mailto:` in the User-Agent puts calls in Crossref's "polite pool"; the operator's address
 * is `SVC_CROSSREF_MAILTO`, and without it the client is not configured (the checker says so per item)
 * rather than calling anonymously. The transport spaces calls per host (api/providers/http.ts).
 */

export interface CrossrefWork {
  /** Lower case (DOIs are case-insensitive). */
  doi: string;
  title: string | null;
  subtitle: string | null;
  /** The journal, book or proceedings. */
  container: string | null;
  /** The year of `issued` (the earliest publication date Crossref holds). */
  year: number | null;
  /** Family names (or whole names of organisations), in order. */
  authors: string[];
  /** Crossref's work type, e.g. `journal-article`. */
  type: string | null;
}

export interface Crossref {
  /** The registered work, or null when Crossref has no such DOI. */
  work(doi: string): Promise<ProviderResult<CrossrefWork | null>>;
  /** The registration agency's id (`crossref`, `datacite`, `medra`, …), or null when no agency knows the DOI. */
  agency(doi: string): Promise<ProviderResult<string | null>>;
  /** Works matching a free-text citation, best first (Crossref's relevance order). */
  searchBibliographic(citation: string, rows: number): Promise<ProviderResult<CrossrefWork[]>>;
}

const strings = z.array(z.string()).optional();
const wireWork = z.object({
  DOI: z.string(),
  title: strings,
  subtitle: strings,
  'container-title': strings,
  issued: z.object({ 'date-parts': z.array(z.array(z.number().nullable())) }).optional(),
  author: z.array(z.object({ family: z.string().optional(), given: z.string().optional(), name: z.string().optional() })).optional(),
  type: z.string().optional(),
});
const envelope = <T extends z.ZodType>(messageType: string, message: T) => z.object({ status: z.literal('ok'), 'message-type': z.literal(messageType), message });
const workReply = envelope('work', wireWork);
const workListReply = envelope('work-list', z.object({ items: z.array(wireWork) }));
const agencyReply = envelope('work-agency', z.object({ DOI: z.string(), agency: z.object({ id: z.string(), label: z.string().optional() }) }));

function work(wire: z.infer<typeof wireWork>): CrossrefWork {
  const year = wire.issued?.['date-parts'][0]?.[0];
  return {
    doi: wire.DOI.toLowerCase(),
    title: wire.title?.[0] ?? null,
    subtitle: wire.subtitle?.[0] ?? null,
    container: wire['container-title']?.[0] ?? null,
    year: typeof year === 'number' ? year : null,
    authors: (wire.author ?? []).map((author) => author.family ?? author.name ?? author.given ?? '').filter((name) => name !== ''),
    type: wire.type ?? null,
  };
}

export interface CrossrefOptions {
  /** e.g. `https://api.crossref.org`. */
  baseUrl: string;
  /** The operator's address for Crossref's polite pool. */
  mailto: string;
  contactUrl: string | undefined;
  transport: ProviderTransport;
}

export function createCrossref(options: CrossrefOptions): Crossref {
  const base = options.baseUrl.replace(/\/+$/, '');
  const request = { userAgent: botUserAgent(options.contactUrl, `mailto:${options.mailto}`) };
  const worksUrl = (doi: string, tail = '') => new URL(`${base}/works/${encodeURIComponent(doi)}${tail}`);
  return {
    async work(doi) {
      const reply = await providerJson(options.transport, worksUrl(doi), workReply, request);
      return reply.ok ? { ok: true, value: reply.value === null ? null : work(reply.value.message) } : reply;
    },
    async agency(doi) {
      const reply = await providerJson(options.transport, worksUrl(doi, '/agency'), agencyReply, request);
      return reply.ok ? { ok: true, value: reply.value?.message.agency.id ?? null } : reply;
    },
    async searchBibliographic(citation, rows) {
      const url = new URL(`${base}/works`);
      url.searchParams.set('query.bibliographic', citation.slice(0, 1_000));
      url.searchParams.set('rows', String(rows));
      const reply = await providerJson(options.transport, url, workListReply, request);
      if (!reply.ok) return reply;
      return { ok: true, value: reply.value === null ? [] : reply.value.message.items.map(work) };
    },
  };
}

/** The client for a server without `SVC_CROSSREF_MAILTO`: every call answers that Crossref is not configured. */
export function unconfiguredCrossref(): Crossref {
  const answer = async () => notConfigured('Crossref', 'SVC_CROSSREF_MAILTO');
  return { work: answer, agency: answer, searchBibliographic: answer };
}
