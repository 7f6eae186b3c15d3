import { z } from '@hono/zod-openapi';
import { AwardList } from '../../data/intelligence/awards.ts';
import { BuyerCohort, BuyerDetail, NewBuyers } from '../../data/intelligence/buyers.ts';
import { GrantsSummary } from '../../data/intelligence/grants.ts';
import { JurisdictionIntelligence } from '../../data/intelligence/jurisdictions.ts';
import { PlanContext } from '../../data/intelligence/plan-context.ts';
import { PlannedIntelligence } from '../../data/intelligence/planned.ts';
import { SignalList } from '../../data/intelligence/signals.ts';
import { IntelligenceSummary } from '../../data/intelligence/summary.ts';
import { SupplierEntity } from '../../data/intelligence/suppliers.ts';
import { TenderContext } from '../../data/intelligence/tender-context.ts';
import { TradePairs, TradeStateIntelligence } from '../../data/intelligence/trades.ts';
import { AwardQuery, BuyerParams, BuyersQuery, LookupQuery, NewBuyersQuery, SupplierParams } from '../routes/awards.ts';
import { JurisdictionParams, PlanIdParams, PlannedQuery, SignalsQuery, TradeStateParams } from '../schemas/intelligence.ts';
import {
  PortalSchema,
  TenderKeyParams,
  TenderReadSchema,
  TenderSearchQuery,
  TenderSearchSchema,
  TenderSourcesSchema,
  TenderStripSchema,
} from '../schemas/tender.ts';
import { TenderMatchBody, TenderMatchSchema } from '../schemas/tender-match.ts';
import { capabilities } from '../checkers/extract/capabilities.ts';
import { extractionResult } from '../checkers/extract/result.ts';
import { identityResult } from '../checkers/identity/result.ts';
import { adverseMediaResult } from '../checkers/adverse-media/result.ts';
import { overlapResult } from '../checkers/overlap/result.ts';
import { packResult } from '../checkers/pack/result.ts';
import { warrantBundle } from '../checkers/warrants/bundle.ts';
import { CheckPackBody } from '../routes/check-pack.ts';
import { companyResolution } from '../checkers/companies/result.ts';
import { CompanyResolveBody } from '../routes/companies-resolve.ts';
import { ExtractBody } from '../routes/extract.ts';
import { IdentityCheckBody } from '../routes/identity-check.ts';
import { AdverseMediaBody } from '../routes/adverse-media.ts';
import { factCheckResult } from '../checkers/references/result.ts';
import { FeedbackBody, FeedbackReply } from '../routes/feedback.ts';
import { CheckIdParams, VerifyReferencesBody } from '../routes/verify-references.ts';
import { SourceOverlapBody } from '../routes/check-source-overlap.ts';
import { DetectAiTextBody } from '../routes/detect-ai-text.ts';
import { aiTextEstimate } from '../checkers/ai-text/result.ts';
import { WarrantBody, WarrantCheckQuery, WarrantCheckSchema, WarrantFeedbackBody, WarrantFeedbackSchema, WarrantIdParams } from '../routes/warrants.ts';
import type { McpTool, RouteMethod, RouteRequest, ToolRoute } from '../schemas/mcp-tool.ts';

/**
 * The MCP tool registry. Every tool is a typed wrapper over one REST route and is called in process
 * through that route, so it is validated, metered and shaped exactly like it. Adding a tool is adding an
 * entry here: the MCP server, /agents.md, /llms.txt and the agent card are all generated from this list
 * and from the route's entry in /openapi.json.
 */

/** Methods whose arguments all travel in the URL. */
const BODILESS: ReadonlySet<RouteMethod> = new Set(['GET', 'DELETE']);

/**
 * A tool whose request is derived from its route: path parameters fill the template, and the remaining
 * arguments become the query string (GET, DELETE) or the JSON body (other methods). Give `toRequest` only
 * for a route that needs something else, such as a multipart upload.
 */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType>(
  tool: Omit<McpTool<Input, Output>, 'toRequest'> & Partial<Pick<McpTool<Input, Output>, 'toRequest'>>,
): McpTool<Input, Output> {
  return { ...tool, toRequest: tool.toRequest ?? ((input) => routeRequest(tool.route, input as Record<string, unknown>)) };
}

/**
 * Arguments as the route reads them. An MCP client sends JSON, but a route reads its path and query
 * parameters as strings, so numbers and booleans bound for the URL are written the way a URL carries them
 * (`limit: 5` → `"5"`); absent and null values are dropped. Anything else is left for the schema to refuse.
 */
export function routeArguments(route: ToolRoute, args: Record<string, unknown>): Record<string, unknown> {
  const inPath = new Set(pathParameters(route.path));
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    const inUrl = inPath.has(name) || BODILESS.has(route.method);
    result[name] = inUrl && (typeof value === 'number' || typeof value === 'boolean') ? String(value) : value;
  }
  return result;
}

function routeRequest(route: ToolRoute, args: Record<string, unknown>): RouteRequest {
  const rest = { ...args };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (BODILESS.has(route.method)) {
    const query = new URLSearchParams(Object.entries(rest).map(([name, value]) => [name, String(value)])).toString();
    return { path: query ? `${path}?${query}` : path, init: { method: route.method } };
  }
  return { path, init: { method: route.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) } };
}

function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** Routes that take no parameters; extra arguments are ignored, as the route ignores extra query parameters. */
const NoArguments = z.object({});

/** `fresh` on a document checker tool: travels in the query, as the route reads it. */
const freshArgument = z.boolean().optional().describe('true: inspect again even if identical bytes were checked before');

/**
 * A document checker tool: the route's JSON body (documents as `bytes_b64`, or `url` where the checker reads
 * URLs) and `fresh`, sent as the route's query. An MCP call never streams: the reply is the JSON result.
 */
function documentCheckerRequest(path: string) {
  return (input: Record<string, unknown>): RouteRequest => {
    const { fresh, stream: _stream, ...body } = input;
    return {
      path: fresh === true || fresh === 'true' ? `${path}?fresh=1` : path,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    };
  };
}

export const mcpTools: readonly McpTool[] = [
  defineTool({
    name: 'search_tenders',
    title: 'Search tenders and grants',
    description:
      'Search open Australian and New Zealand government tenders and grants. Free text `q` ranks by relevance (or by closing date with `sort` closing); ' +
      'without it results come soonest-closing first. Filter by jurisdiction (AU covers every state; New Zealand ' +
      'rows appear only with NZ), kind, tier, source, UNSPSC category, exact buyer name, and closing or change ' +
      'windows; page with limit and offset. Every reply carries `coverage`: an empty result means no match among ' +
      'the sources searched, never that no such tender exists.',
    route: { method: 'GET', path: '/v1/tenders' },
    input: TenderSearchQuery,
    output: TenderSearchSchema,
  }),
  defineTool({
    name: 'get_tender',
    title: 'Read a tender',
    description:
      'Read one tender or grant by its `page_key` from a search result, with `open` judged in the buyer\'s time ' +
      'zone. Closed tenders still answer. Links to the original portal are included only for callers with an API key.',
    route: { method: 'GET', path: '/v1/tenders/{key}' },
    input: TenderKeyParams,
    output: TenderReadSchema,
  }),
  defineTool({
    name: 'get_tender_portal',
    title: "Link to a tender's portal",
    description:
      'The link to a tender on its original portal, the portal\'s name, and whether the link opens the list the tender ' +
      'appeared on rather than the tender itself. Needs an API key; without one the tool answers with how to get one.',
    route: { method: 'GET', path: '/v1/tenders/{key}/portal' },
    input: TenderKeyParams,
    output: PortalSchema,
  }),
  defineTool({
    name: 'list_tender_sources',
    title: 'List tender sources',
    description:
      'The registry of sources behind the tender corpus: for each, its tag, refresh mode, tender count, last run ' +
      'and the status of that run (for example empty, login-walled or refused by robots.txt, with a diagnosis). ' +
      'Use it to judge what a search covered or to find a `source` id to filter by.',
    route: { method: 'GET', path: '/v1/tenders/sources' },
    input: NoArguments,
    output: TenderSourcesSchema,
  }),
  defineTool({
    name: 'tenders_match',
    title: 'Match open tenders to a company',
    description:
      "Rank open tenders against what a company's website says it does. Give `url` (a bare domain is fine; public " +
      'sites only) or `example` (civil, it or facilities) to try it without a site, and optionally `jurisdiction` ' +
      'and `closing_before`. Each result has a 0-100 `score` relative to the other results (not a probability of ' +
      'winning), `why` (the capabilities it needs that the site states) and `gaps` (what it asks for that the site ' +
      'does not mention). `degraded: true` means no capability was recognised and the order is keyword relevance only. ' +
      'Without an API key only the strongest three are shown and `withheld` counts the rest. Uses one unit of the weekly allowance.',
    route: { method: 'POST', path: '/v1/tenders/match' },
    input: TenderMatchBody,
    output: TenderMatchSchema,
    metered: true,
  }),
  defineTool({
    name: 'tender_strip',
    title: 'Tender headline counts',
    description: 'Counts of open tenders: closing within 48 hours, with dates changed in the last 7 days, and new in the last 7 days.',
    route: { method: 'GET', path: '/v1/tenders/strip' },
    input: NoArguments,
    output: TenderStripSchema,
  }),
  defineTool({
    name: 'get_tender_context',
    title: "A tender's buyer and similar work",
    description:
      "What the release knows around one tender (its `page_key`): the buyer's summary with its most recent and soonest-ending " +
      "contracts, and contracts and open tenders whose titles share the tender's keywords (a heuristic, labelled `match`). " +
      'Supplier names need an API key; each contract says whether one is held.',
    route: { method: 'GET', path: '/v1/tenders/{key}/context' },
    input: TenderKeyParams,
    output: TenderContext,
  }),
  defineTool({
    name: 'search_awards',
    title: 'Search contract awards',
    description:
      'Contracts awarded by Australian and New Zealand government buyers, most recent first. Filter by words (`q`), buyer, ' +
      'buyer_key, supplier, supplier_key (an ABN or `<scheme>:<id>`), jurisdiction and `since`; page with limit and offset. ' +
      'Supplier names and identifiers and source links need an API key; `withheld` names what was left out.',
    route: { method: 'GET', path: '/v1/awards' },
    input: AwardQuery,
    output: AwardList,
  }),
  defineTool({
    name: 'list_buyers',
    title: 'List government buyers',
    description:
      'The listed buyers of a country (`AU` or `NZ`): those with at least 20 contracts in the last three years or at least 5 open ' +
      'tenders, with their figures, ordered by contract count or total value. Each has a `buyer_key` for get_buyer.',
    route: { method: 'GET', path: '/v1/awards/buyers' },
    input: BuyersQuery,
    output: BuyerCohort,
  }),
  defineTool({
    name: 'count_new_buyers',
    title: 'Count new buyers',
    description: 'How many buyers of a country were first seen on or after a date (`since`, required).',
    route: { method: 'GET', path: '/v1/awards/buyers/new' },
    input: NewBuyersQuery,
    output: NewBuyers,
  }),
  defineTool({
    name: 'lookup_buyer',
    title: 'Find a buyer by its published name',
    description:
      'Resolve a buyer name as a tender or contract publishes it (`name` and `jurisdiction`, both required) to the buyer, and ' +
      'answer what get_buyer answers for it. A near miss is resolved by a labelled heuristic and the reply says so in `match`.',
    route: { method: 'GET', path: '/v1/awards/buyers/lookup' },
    input: LookupQuery,
    output: BuyerDetail,
  }),
  defineTool({
    name: 'get_buyer',
    title: 'Read a buyer',
    description:
      "One buyer by its `buyer_key`: contract figures, contracts expiring, procurement plans, recent awards and open tenders. " +
      'Its top suppliers and links need an API key.',
    route: { method: 'GET', path: '/v1/awards/buyers/{buyer_key}' },
    input: BuyerParams,
    output: BuyerDetail,
  }),
  defineTool({
    name: 'get_supplier',
    title: 'Read a supplier',
    description:
      "One supplier by an ABN or `<scheme>:<id>`: its government contracts, buyers and categories, and its business register " +
      'standing. Without an API key the counts are shown and names and identifiers are withheld.',
    route: { method: 'GET', path: '/v1/awards/suppliers/{identifier}' },
    input: SupplierParams,
    output: SupplierEntity,
  }),
  defineTool({
    name: 'list_signals',
    title: 'Forward-looking signals',
    description:
      'What is likely to come to market: contracts expiring, planned procurements and tenders that recur, sorted by when their ' +
      'window starts. Filter by kind, jurisdiction, buyer, words and window dates. Incumbents and evidence links need an API key.',
    route: { method: 'GET', path: '/v1/signals' },
    input: SignalsQuery,
    output: SignalList,
  }),
  defineTool({
    name: 'list_planned_procurements',
    title: 'Planned procurements',
    description:
      "Entries of buyers' annual procurement plans and forward notices still to come, filtered by jurisdiction, buyer, " +
      'buyer_key, words, quarter (such as 2026Q4) or window dates, with facets by quarter, buyer and category. Each result\'s ' +
      '`evidence_ref` is the plan id get_plan_context takes.',
    route: { method: 'GET', path: '/v1/intelligence/planned' },
    input: PlannedQuery,
    output: PlannedIntelligence,
  }),
  defineTool({
    name: 'get_plan_context',
    title: "A planned procurement's buyer and similar work",
    description: "One planned procurement by its id (`evidence_ref`), its buyer's summary, and how many of that buyer's contracts are for similar work.",
    route: { method: 'GET', path: '/v1/intelligence/planned/{plan_id}/context' },
    input: PlanIdParams,
    output: PlanContext,
  }),
  defineTool({
    name: 'intelligence_summary',
    title: 'Headline intelligence',
    description:
      'Headline counts across Australia and New Zealand: open tenders, new this week, contracts ending within a year, planned ' +
      'procurements starting this quarter, active buyers and open grant rounds, by jurisdiction, with a few of the soonest expiring, ' +
      'planned and recurring rows.',
    route: { method: 'GET', path: '/v1/intelligence/summary' },
    input: NoArguments,
    output: IntelligenceSummary,
  }),
  defineTool({
    name: 'jurisdiction_intelligence',
    title: 'One state or country',
    description:
      'One jurisdiction (a code such as `AU-NSW`, or `nsw`, `au`, `nz`): contracts expiring, planned procurements, its buyers and open tenders.',
    route: { method: 'GET', path: '/v1/intelligence/{jurisdiction}' },
    input: JurisdictionParams,
    output: JurisdictionIntelligence,
  }),
  defineTool({
    name: 'list_trades',
    title: 'Trades by jurisdiction',
    description: 'Every trade × jurisdiction pair with anything to show, largest first, with its counts; the pairs get_trade_intelligence reads.',
    route: { method: 'GET', path: '/v1/intelligence/trades' },
    input: NoArguments,
    output: TradePairs,
  }),
  defineTool({
    name: 'get_trade_intelligence',
    title: 'One trade in one jurisdiction',
    description:
      'One trade (such as `civil-works`) in one jurisdiction (such as `nsw`, `au` or `nz`): open tenders, contracts ending, planned ' +
      'and recurring work, buyers and how concentrated the market is. Holder names and the re-tender calendar need an API key.',
    route: { method: 'GET', path: '/v1/intelligence/trades/{trade}/{state}' },
    input: TradeStateParams,
    output: TradeStateIntelligence,
  }),
  defineTool({
    name: 'grants_summary',
    title: 'Open grant rounds',
    description: 'How many grant rounds are open, how many close this month, and the total value of those stating one.',
    route: { method: 'GET', path: '/v1/grants/summary' },
    input: NoArguments,
    output: GrantsSummary,
  }),
  defineTool({
    name: 'inspect_document',
    title: 'Inspect a document for signs of editing',
    description:
      'Forensic inspection of a PDF or image (PNG, JPEG, WebP, BMP, TIFF; up to 25 MB) sent as `bytes_b64` with its `filename`: ' +
      'revisions and what each later save changed, signatures, scripts, metadata, fonts, covered or overdrawn text, image ' +
      'EXIF and JPEG traces, and invoice arithmetic. Returns a stored warrant: `risk_band` (low, medium, high; `insufficient` ' +
      'when too little could be read; `error` when it could not be parsed), each signal with where it was found, and a ' +
      'recommended action. A signal for a person to review, never a fraud verdict. The same bytes return the stored warrant ' +
      'free (`fresh: true` inspects again). URLs are not read. Uses one unit of the weekly allowance per inspection.',
    route: { method: 'POST', path: '/v1/warrants' },
    input: WarrantBody.extend({ fresh: freshArgument }),
    output: warrantBundle,
    metered: true,
    toRequest: documentCheckerRequest('/v1/warrants'),
  }),
  defineTool({
    name: 'check_warrant_cache',
    title: 'Find a stored warrant by file hash',
    description: "Whether a file (by its SHA-256, 64 lowercase hex) already has a warrant; inspecting it again would return that warrant free. Not metered.",
    route: { method: 'GET', path: '/v1/warrants/check' },
    input: WarrantCheckQuery,
    output: WarrantCheckSchema,
  }),
  defineTool({
    name: 'get_warrant',
    title: 'Read a stored warrant',
    description: 'A stored warrant by its `warrant_id` (`warrant_` and 16 hex characters), with every signal. Not metered.',
    route: { method: 'GET', path: '/v1/warrants/{warrant_id}' },
    input: WarrantIdParams,
    output: warrantBundle,
  }),
  defineTool({
    name: 'warrant_feedback',
    title: 'Rate a warrant',
    description: 'Say whether a warrant was useful: `verdict` up or down, with an optional `note`. Not metered.',
    route: { method: 'POST', path: '/v1/warrants/{warrant_id}/feedback' },
    input: WarrantIdParams.extend(WarrantFeedbackBody.shape),
    output: WarrantFeedbackSchema,
  }),
  defineTool({
    name: 'extract_document',
    title: 'Extract fields from a document',
    description:
      'Structured fields from a PDF, image, .docx, text or HTML document (`bytes_b64` with `filename`, or `url`; up to 25 MB, at ' +
      'most 10 pages read): name the `fields` (names, or {name, type, description}), or a `template` (payslip, tax_invoice, ' +
      'bank_statement, receipt, contract), or neither to have the document classified first. Each value comes with its ' +
      'confidence and page; `not_found` lists what was not located. `options` adds tables, grounding, classify, redact, layout, ' +
      'links, figures, chunks, split or flag_below (see extract_capabilities). Extraction is not verification, and the document ' +
      'is never stored. Uses one unit of the weekly allowance per call.',
    route: { method: 'POST', path: '/v1/extract' },
    input: ExtractBody.extend({ fresh: freshArgument }),
    output: extractionResult,
    metered: true,
    toRequest: documentCheckerRequest('/v1/extract'),
  }),
  defineTool({
    name: 'extract_capabilities',
    title: 'What extraction options this server offers',
    description: 'Each extract option: what it accepts, which inputs it works on, how it works, whether it was measured (with the figure) and whether it is available here. Free.',
    route: { method: 'GET', path: '/v1/extract/capabilities' },
    input: NoArguments,
    output: capabilities,
  }),
  defineTool({
    name: 'identity_check',
    title: 'Check identity documents against an Australian scheme',
    description:
      'Up to 10 identity documents (PDF or images, each `{bytes_b64, filename}` or `{url}`) counted under `scheme` ' +
      '`afp_100_point` (default: points and primaries) or `austrac_safe_harbour` (a category path). Each document is classified ' +
      '(passport, driver licence, Medicare card, utility bill, …) with what it shows (N name, P photo, A address, S signature) ' +
      'and how it counts; `established` says whether the set meets the scheme. Coverage for a person to act on: no document is ' +
      'authenticated. Uses one unit of the weekly allowance per call.',
    route: { method: 'POST', path: '/v1/identity-check' },
    input: IdentityCheckBody.extend({ fresh: freshArgument }),
    output: identityResult,
    metered: true,
    toRequest: documentCheckerRequest('/v1/identity-check'),
  }),
  defineTool({
    name: 'check_pack',
    title: 'Check a document pack against a checklist',
    description:
      'Up to 12 documents (each `{bytes_b64, filename}` or `{url}`) classified from their first page and matched to the slots of ' +
      'a `scheme` (income_proof, lending_prequal, rental_application) or your own `requirements` (document types, or {key, ' +
      'accepts[], optional}): which slots are filled, what is `missing`, documents that matched nothing, and documents a scheme ' +
      'should not collect where a published rule says so. Uses one unit of the weekly allowance per call.',
    route: { method: 'POST', path: '/v1/check-pack' },
    input: CheckPackBody.extend({ fresh: freshArgument }),
    output: packResult,
    metered: true,
    toRequest: documentCheckerRequest('/v1/check-pack'),
  }),
  defineTool({
    name: 'adverse_media',
    title: 'Screen a person against sanctions lists and adverse news',
    description:
      'Screens a person by `name` (with `dob`, `country`, `aliases`, `employer`, `role` when known: they set aside same-name ' +
      'articles about someone else), or the holder of an identity document (`bytes_b64` with `filename`, or `url`: a passport or ' +
      'driver licence), against the sanctions lists of the loaded release (DFAT, UN Security Council, OFAC SDN) and against news. ' +
      'News hits carry a category (fraud, corruption_bribery, money_laundering, sanctions_evasion, terrorism, violence, ' +
      'regulatory_action, other), a severity and the sentence that says it; `excluded` lists namesakes with the reason. A ' +
      'name-only sanctions hit is `possible`, never confirmed; lists of politically exposed persons are not screened. ' +
      '`limitations` says which sources answered. Uses one unit of the weekly allowance per call in which a source answered.',
    route: { method: 'POST', path: '/v1/adverse-media' },
    input: AdverseMediaBody,
    output: adverseMediaResult,
    metered: true,
  }),
  defineTool({
    name: 'resolve_company',
    title: 'Resolve an Australian company by name, ABN or ACN',
    description:
      'Look a company up in the ABN and ASIC registers: `query` is a name, or an ABN, ACN or NZBN as printed. An ABN or ACN resolves ' +
      "directly (`selected`: identifiers, legal name, ABN status, and the `asic` block with status code, its meaning, good standing, " +
      'registration date, former names and how old the weekly copy is). A number failing its check digit is a typo: `identifier.nearest_valid` ' +
      'lists the valid numbers it may have been meant as, two adjacent digits swapped back first, then one digit changed. A name only gives `candidates` ordered by match quality, never a selection. `coverage` says ' +
      'which registers answered; `inconclusive` means one could not be read (or an NZ identifier). No directors or officeholders. ' +
      'Uses one unit of the weekly allowance per call, except inconclusive answers.',
    route: { method: 'POST', path: '/v1/companies/resolve' },
    input: CompanyResolveBody,
    output: companyResolution,
    metered: true,
  }),
  defineTool({
    name: 'verify_references',
    title: "Check a document's references and arithmetic",
    description:
      'One document (`text`, or `bytes_b64` with `filename` for a PDF, .docx, text or HTML file, or `url`): every link is classified ' +
      'live, archived (dead now, the Wayback Machine has a copy) or dead with its evidence (one failed attempt is unreachable_now), ' +
      'every DOI is resolved on Crossref and its registered title compared with the cited one, citations without a DOI are looked ' +
      'up on Crossref, and the sums, totals, percentages and year spans the document states are recomputed. `deep: true` also ' +
      'judges each citing sentence against the page it cites (supports, contradicts or unclear). The result is kept under ' +
      '`check_id` (see get_fact_check). Uses one unit of the weekly allowance, unless nothing could be checked.',
    route: { method: 'POST', path: '/v1/verify-references' },
    input: VerifyReferencesBody.extend({ deep: z.boolean().optional().describe('true: also judge each citing sentence against the cited page (slower)') }),
    output: factCheckResult,
    metered: true,
    toRequest: (input: Record<string, unknown>): RouteRequest => {
      const { deep, ...body } = input;
      return { path: deep === true ? '/v1/verify-references?deep=1' : '/v1/verify-references', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } };
    },
  }),
  defineTool({
    name: 'get_fact_check',
    title: 'Read a stored fact-check',
    description: 'The latest verify_references result for a `check_id` (`fc_` and 16 hex characters). Not metered.',
    route: { method: 'GET', path: '/v1/fact-checks/{check_id}' },
    input: CheckIdParams,
    output: factCheckResult,
  }),
  defineTool({
    name: 'checker_feedback',
    title: 'Rate an AI-text estimate or a fact-check',
    description: 'Say whether a detect_ai_text or verify_references reply was useful: `tool`, `verdict` up or down, optional `ref` (e.g. the check_id) and `note`. Not metered.',
    route: { method: 'POST', path: '/v1/feedback' },
    input: FeedbackBody,
    output: FeedbackReply,
  }),
  defineTool({
    name: 'check_source_overlap',
    title: 'Find passages of a document published word for word on the web',
    description:
      'One document (`text`, `{bytes_b64, filename}` of a PDF, text, HTML or .docx, or `url`): its most distinctive passages are ' +
      'searched on the web, the pages found are read (never those on the `url`\'s own host), and every passage of 10 or more words a ' +
      'page holds word for word is returned with its span in the document and in the page, `overlap_ratio`, `overlap_band` and ' +
      '`top_sources`. Paraphrase is not checked. `outcome` says when the check abstained (short or non-prose text) or could not ' +
      'search (no provider configured or answering); only `assessed` uses one unit of the weekly allowance.',
    route: { method: 'POST', path: '/v1/check-source-overlap' },
    input: SourceOverlapBody,
    output: overlapResult,
    metered: true,
    toRequest: documentCheckerRequest('/v1/check-source-overlap'),
  }),
  defineTool({
    name: 'detect_ai_text',
    title: 'Estimate whether prose was written by AI',
    description:
      'An estimate of whether English prose was written by an AI model: give `text`, or a PDF, text or HTML document ' +
      '(`bytes_b64` with `filename`, or `url`). Returns `probability`, `lean` (ai, likely_ai, uncertain, likely_human, human), ' +
      '`tells` (each with its published basis and the passage that shows it) and `reasoning`. Abstains (`applicable: false`, ' +
      'with the reason) on forms, tables, lists, code, scans, non-English text and texts under 150 words. Never a verdict: ' +
      '`limitations` quotes the measured AUROC and false-positive rate. Uses one unit of the weekly allowance per answer; ' +
      'abstentions are not counted.',
    route: { method: 'POST', path: '/v1/detect-ai-text' },
    input: DetectAiTextBody,
    output: aiTextEstimate,
    metered: true,
    toRequest: documentCheckerRequest('/v1/detect-ai-text'),
  }),
];
