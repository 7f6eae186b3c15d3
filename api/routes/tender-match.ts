import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { readFileSync } from 'node:fs';
import { isJurisdiction, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { SafeFetchError, createSafeFetcher, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { readCompanySite } from '../../data/intelligence/company-site.ts';
import { exampleProfile, MATCH_EXAMPLES, type MatchExample } from '../../data/intelligence/match-examples.ts';
import { companyProfile, rankTenders, type CompanyProfile, type MatchRanking } from '../../data/intelligence/match.ts';
import type { IndexedTender, TenderRow } from '../../data/search/tender-index.ts';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isIdentified } from '../middleware/caller.ts';
import { invalidInputHook } from '../schemas/invalid-input.ts';
import { metered } from '../middleware/metered.ts';
import { requireRelease } from '../middleware/require-release.ts';
import type { SandboxEnv } from '../schemas/common.ts';
import type { Sandbox } from '../middleware/sandbox.ts';
import { bodyMediaType } from '../middleware/request-checks.ts';
import { attributionsOf, tenderReply } from '../schemas/tender.ts';
import { TenderMatchBody, TenderMatchSchema, type TenderMatchReply } from '../schemas/tender-match.ts';
import type { Meter } from '../usage/meter.ts';
import type { Attribution, SourceAttributionRow } from '../../data/intelligence/context.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface TenderMatchRoutesOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  meter: Meter;
  /** The app's sandbox registry; the tool's fixture is registered in it here. */
  sandbox: Sandbox;
  /** Reads company sites. Default: the SSRF-safe fetcher with its real guard. */
  fetchSite?: SafeFetcher;
}

type MatchEnv = ReleaseEnv & CallerEnv & SandboxEnv;
type MatchMiddleware = [MiddlewareHandler<SandboxEnv>, MiddlewareHandler<ReleaseEnv>, MiddlewareHandler, MiddlewareHandler<CallerEnv>];

/** The sandbox registry's name for this tool, and its MCP tool's name. */
export const TENDER_MATCH_TOOL = 'tenders_match';
/** Results an anonymous caller sees; the rest are counted in `withheld` (spec, Authentication 7). */
export const ANONYMOUS_SHOWN = 3;
export const SCORE_MEANING =
  'Each score is 0 to 100: how well the tender fits what the site says, relative to the best tender in these results. ' +
  'It is not a probability of winning.';

const FETCH_STATUS = { refused: 400, too_large: 413, unreachable: 502 } as const;

/** The route, with the middleware it runs before the body is validated. */
const matchRoute = (middleware: MatchMiddleware) => createRoute({
  method: 'post',
  path: '/v1/tenders/match',
  tags: ['Tenders'],
  summary: "Rank open tenders against what a company's website says it does",
  description:
    'Reads the home page and a few same-site services, capabilities or about pages (public hosts only; redirects checked ' +
    'hop by hop), or uses an example company, and scores open tenders 0 to 100 relative to the results returned, with why ' +
    'and gaps. A metered tool: one unit per call. Anonymous callers see the strongest three and `withheld` counts the rest.',
  middleware,
  request: { body: { required: true, content: json(TenderMatchBody) } },
  responses: {
    200: { description: 'The ranked tenders.', content: json(TenderMatchSchema) },
    400: errorReply('The URL is refused: not http or https, or not a public internet host.'),
    413: errorReply("The site's page is larger than 25 MB."),
    415: errorReply('The body is not JSON.'),
    422: errorReply('The body does not match the schema (for example an unknown example); `detail` names the field.'),
    429: errorReply('The weekly allowance is used up; `Retry-After` says when it comes back.'),
    502: errorReply('The site could not be read.'),
    503: errorReply('No release is loaded yet, or the usage meter is unreachable (`Retry-After` says when to try again).'),
  },
});

/**
 * POST /v1/tenders/match: ranks open tenders for a company, from its website (through the SSRF-safe
 * fetcher) or an example profile, with the sandbox fixture registered under `tenders_match`. Mount it
 * before the tender routes, so a sandbox call is answered even while no release is loaded.
 *
 * @example
 * app.route('/', tenderMatchRoutes({ store, meter, sandbox }));
 * // POST /v1/tenders/match {"url":"example.com.au","jurisdiction":"AU-NSW"} → 200 {company, results[], matched, withheld, …}
 */
export function tenderMatchRoutes(options: TenderMatchRoutesOptions): OpenAPIHono<MatchEnv> {
  const { store, meter, sandbox } = options;
  const fetchSite = options.fetchSite ?? createSafeFetcher();
  const app = new OpenAPIHono<MatchEnv>({ defaultHook: invalidInputHook<MatchEnv>() });

  sandbox.register(TENDER_MATCH_TOOL, {
    summary: 'The civil example company (or the `example` asked for) ranked against seven invented open tenders, as an anonymous caller sees it.',
    reply: (request) => sandboxReply(request.body),
  });

  app.openapi(
    // Sandbox first (free, before anything else); then no release, no call; the meter last, once the body is known to be JSON.
    matchRoute([sandbox.middleware(TENDER_MATCH_TOOL), requireRelease({ store }), bodyMediaType('json'), metered({ meter })]),
    async (c) => {
      const body = c.req.valid('json');
      let profile: CompanyProfile;
      let company: TenderMatchReply['company'];
      if (body.example !== undefined) {
        profile = exampleProfile(body.example);
        company = { example: body.example, pages_read: [], ...companyTerms(profile) };
      } else {
        try {
          const site = await readCompanySite(body.url!, fetchSite);
          profile = companyProfile(site.pages.map((page) => page.text));
          company = { url: site.url, pages_read: site.pages.map((page) => page.url), ...companyTerms(profile) };
        } catch (error) {
          if (error instanceof SafeFetchError) return c.json({ detail: error.message }, FETCH_STATUS[error.kind]);
          throw error;
        }
      }
      const release = c.get('release');
      const candidates = release.tenders.search(
        { kind: 'tender', jurisdiction: body.jurisdiction, closing_before: body.closing_before },
        { limit: release.tenders.size, offset: 0 },
        store.now(),
      ).hits;
      const ranking = rankTenders(profile, candidates.map((hit) => hit.tender));
      const identified = isIdentified(c.get('caller'));
      return c.json(matchReply(ranking, company, identified, release.computedAt, release.tenders.sources), 200);
    },
  );

  return app;
}

function companyTerms(profile: CompanyProfile): Pick<TenderMatchReply['company'], 'trades' | 'capabilities'> {
  return {
    trades: profile.trades.map(({ trade, name }) => ({ trade, name })),
    capabilities: profile.capabilities.map((capability) => capability.phrase),
  };
}

/**
 * The reply for a ranking: identified callers see every result; anonymous callers the strongest
 * `ANONYMOUS_SHOWN`, the rest counted in `withheld`, so shown + withheld == matched whoever asks.
 */
export function matchReply(
  ranking: MatchRanking,
  company: TenderMatchReply['company'],
  identified: boolean,
  computedAt: string,
  registry: readonly SourceAttributionRow[],
): TenderMatchReply {
  const matched = ranking.results.length;
  const shownCount = identified ? matched : Math.min(matched, ANONYMOUS_SHOWN);
  const audience = { links: identified };
  // Every candidate is open: the search that chose them keeps open tenders only.
  const results = ranking.degraded
    ? ranking.results.slice(0, shownCount).map(({ tender }) => tenderReply(tender, true, audience))
    : ranking.results.slice(0, shownCount).map(({ tender, score, why, gaps }) => ({ ...tenderReply(tender, true, audience), score, why, gaps }));
  const withheld = matched - shownCount;
  const sources: Attribution[] = attributionsOf(results.map((result) => result.source), registry);
  return {
    company,
    score_meaning: SCORE_MEANING,
    degraded: ranking.degraded,
    degraded_reason: ranking.degraded ? ranking.reason : undefined,
    matched,
    withheld,
    withheld_reason: withheld > 0 ? `Anonymous calls see the strongest ${ANONYMOUS_SHOWN} results; call with an API key or a signed-in session to see all ${matched}.` : undefined,
    considered: ranking.considered,
    results,
    computed_at: computedAt,
    sources,
  };
}

/** The sandbox's open tenders, from fixtures/match/sandbox-tenders.json, read once. */
interface SandboxTenders {
  computed_at: string;
  tenders: (Pick<TenderRow, 'tender_key' | 'title' | 'summary' | 'buyer' | 'jurisdiction' | 'tier' | 'trade' | 'closing_date'>)[];
}

let sandboxTenders: { computedAt: string; tenders: IndexedTender[] } | undefined;

function sandboxCandidates(): { computedAt: string; tenders: IndexedTender[] } {
  if (sandboxTenders === undefined) {
    const file = JSON.parse(readFileSync(new URL('../../fixtures/match/sandbox-tenders.json', import.meta.url), 'utf8')) as SandboxTenders;
    const tenders = file.tenders.map((tender): IndexedTender => {
      const row: TenderRow = {
        ...tender,
        source: 'sandbox',
        source_tag: 'SANDBOX',
        kind: 'tender',
        reference: null,
        category: null,
        category_name: null,
        notice_type: null,
        published_date: null,
        closing_at: null,
        value_text: null,
        url: '',
        listing_url: null,
        first_seen: file.computed_at,
        last_seen: file.computed_at,
        dates_changed_at: null,
        stale: false,
        source_homepage: null,
      };
      const jurisdiction: Jurisdiction = isJurisdiction(row.jurisdiction) ? row.jurisdiction : 'AU';
      return { row, jurisdiction, kind: 'tender', tier: row.tier as IndexedTender['tier'], closingDate: row.closing_date, trade: row.trade };
    });
    sandboxTenders = { computedAt: file.computed_at, tenders };
  }
  return sandboxTenders;
}

function sandboxReply(body: unknown): Record<string, unknown> {
  const asked = (body as { example?: unknown } | undefined)?.example;
  const example: MatchExample = MATCH_EXAMPLES.find((name) => name === asked) ?? 'civil';
  const profile = exampleProfile(example);
  const { computedAt, tenders } = sandboxCandidates();
  return matchReply(rankTenders(profile, tenders), { example, pages_read: [], ...companyTerms(profile) }, false, computedAt, []);
}
