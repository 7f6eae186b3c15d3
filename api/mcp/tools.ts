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
import type { CheckerDescriptor, CheckerTool } from '../checkers/define-checker.ts';
import { checkers, publishedOrder } from '../checkers/registry.ts';
import type { McpTool, RouteMethod, RouteRequest, ToolRoute } from '../schemas/mcp-tool.ts';

/**
 * The MCP tool registry. Every tool is a typed wrapper over one REST route and is called in process
 * through that route, so it is validated, metered and shaped exactly like it. Adding a tool is adding an
 * entry here, or for a checker's tools its descriptor (api/checkers/<name>/checker.ts): the MCP server,
 * /agents.md, /llms.txt and the agent card are all generated from this list and from the route's entry in
 * /openapi.json.
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

/**
 * A document checker tool's request: the route's JSON body (documents as `bytes_b64`, or `url` where the
 * checker reads URLs) and `fresh`, sent as the route's query. An MCP call never streams: the reply is the JSON result.
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

/** A checker's tools: its own over its POST (metered), then its companions', as its descriptor declares them. */
function checkerTools(checker: CheckerDescriptor): McpTool[] {
  const { request } = checker.mcp;
  const own: CheckerTool = {
    name: checker.tool,
    title: checker.mcp.title,
    description: checker.mcp.description,
    route: { method: 'POST', path: checker.path },
    input: checker.mcp.input,
    output: checker.mcp.output,
    metered: true,
    ...(request === undefined ? {} : { toRequest: request === 'document' ? documentCheckerRequest(checker.path) : request }),
  };
  return [own, ...(checker.companions?.tools ?? [])].map((tool) => defineTool(tool as Parameters<typeof defineTool>[0]));
}

/** The tools of the market reads (tenders, awards, buyers, intelligence), then every checker's, in the order given. */
export function mcpToolsOf(checkerList: readonly CheckerDescriptor[]): readonly McpTool[] {
  return [...marketTools, ...checkerList.flatMap(checkerTools)];
}

const marketTools: readonly McpTool[] = [
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
];

/** Every tool of the service: the market reads and the service's checkers, in their published order. */
export const mcpTools: readonly McpTool[] = mcpToolsOf(publishedOrder(checkers, 'tools'));
