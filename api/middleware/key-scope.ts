import type { Context, MiddlewareHandler } from 'hono';
import type { CallerEnv } from '../accounts/caller.ts';
import { steps, type RequestStep } from './steps.ts';

/**
 * Bindings of a request the MCP server forwards in process with `app.request(path, init, { mcpForward: true })`.
 * Requests from the network carry the Node server's own bindings, so they can never set this.
 */
export interface ForwardBindings {
  mcpForward?: boolean;
}

export interface ForwardEnv extends CallerEnv {
  Bindings: ForwardBindings;
}

/** True for a request the MCP server forwarded in process (already admitted at /mcp). */
export function isMcpForward(c: Context): boolean {
  return (c.env as ForwardBindings | undefined)?.mcpForward === true;
}

export interface KeyScopeOptions {
  /** Where connector keys work (default `/mcp`, which covers `/mcp/…`). */
  mcpPath?: string;
}

/**
 * A key minted for a chat connector (scope `mcp`) answers 401 everywhere but the MCP endpoints: the
 * connector URL carries the key in plain sight, so it must not also open the REST API. The MCP server's
 * in-process forwards of its tools to REST routes are allowed.
 *
 * @example
 * app.use('*', caller({ state }));
 * app.use('*', keyScope());
 * // GET /v1/keys with a connector's key → 401
 */
export function keyScope(options: KeyScopeOptions = {}): MiddlewareHandler<ForwardEnv> {
  return steps([keyScopeStep(options)]);
}

/** `keyScope()` as a step, for the app's one access middleware (api/middleware/steps.ts says why). */
export function keyScopeStep(options: KeyScopeOptions = {}): RequestStep<ForwardEnv> {
  const mcpPath = options.mcpPath ?? '/mcp';
  return function checkKeyScope(c) {
    const caller = c.get('caller');
    if (caller.kind !== 'key' || caller.scope !== 'mcp') return undefined;
    const path = c.req.path;
    if (path === mcpPath || path.startsWith(`${mcpPath}/`) || isMcpForward(c)) return undefined;
    return c.json({ detail: `This key belongs to a chat connector and works only at ${mcpPath}. For REST calls create an API key with POST /v1/keys.` }, 401);
  };
}
