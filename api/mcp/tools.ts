import { z } from '@hono/zod-openapi';
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

/**
 * The MCP tool registry. Every tool is a typed wrapper over one REST route and is called in process
 * through that route, so it is validated, metered and shaped exactly like it. Adding a tool is adding an
 * entry here: the MCP server, /agents.md, /llms.txt and the agent card are all generated from this list
 * and from the route's entry in /openapi.json.
 */

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The REST route a tool wraps, named exactly as /openapi.json names it (`{param}` path templates). */
export interface ToolRoute {
  method: RouteMethod;
  path: string;
}

/** One in-process request to a route: the path with its query string, and the rest of the request. */
export interface RouteRequest {
  path: string;
  init: RequestInit;
}

export interface McpTool<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  name: string;
  /** Shown to people in MCP clients. */
  title: string;
  /** What the tool does and when to use it, written for the model choosing a tool. */
  description: string;
  route: ToolRoute;
  /**
   * The route's own request schema (its query and path parameters, or its JSON body). Arguments are checked
   * against it before the call, and the route checks them again on arrival.
   */
  input: Input;
  /** The route's success reply schema; every reply is checked against it before it becomes structured content. */
  output: Output;
  /** The route request for arguments that passed `input`; declared as a method so a registry can hold tools of every input type. */
  toRequest(input: z.input<Input>): RouteRequest;
}

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

export const mcpTools: readonly McpTool[] = [
  defineTool({
    name: 'search_tenders',
    title: 'Search tenders and grants',
    description:
      'Search open Australian and New Zealand government tenders and grants. Free text `q` ranks by relevance; ' +
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
  }),
  defineTool({
    name: 'tender_strip',
    title: 'Tender headline counts',
    description: 'Counts of open tenders: closing within 48 hours, with dates changed in the last 7 days, and new in the last 7 days.',
    route: { method: 'GET', path: '/v1/tenders/strip' },
    input: NoArguments,
    output: TenderStripSchema,
  }),
];
