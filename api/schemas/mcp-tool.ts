import type { z } from '@hono/zod-openapi';

/**
 * The shape of an MCP tool: a typed wrapper over one REST route (api/mcp/tools.ts holds the registry). Kept
 * below the routes so the discovery route and the published documents can read tools without importing the
 * MCP layer above them.
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
  /**
   * True when the route runs the weekly meter (api/middleware/metered.ts), one unit per call: the discovery
   * documents name these tools as the calls the weekly allowance counts.
   */
  metered?: boolean;
  /** The route request for arguments that passed `input`; declared as a method so a registry can hold tools of every input type. */
  toRequest(input: z.input<Input>): RouteRequest;
}
