import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CHECKER_TAG, type CheckerDeps, type CheckerDescriptor, type CheckerLane } from '../checkers/define-checker.ts';
import { countsAgainstAllowance } from '../checkers/_runner/answer.ts';
import { judgedReplyCounts } from '../checkers/_runner/answer.ts';
import { MAX_DOCUMENT_BYTES, readDocuments, type IntakeRules } from '../checkers/_runner/intake.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { invalidInputHook } from '../schemas/invalid-input.ts';
import { metered, type MeteredOptions } from '../middleware/metered.ts';
import { bodyMediaType } from '../middleware/request-checks.ts';
import type { Sandbox } from '../middleware/sandbox.ts';
import type { SandboxEnv } from '../schemas/common.ts';
import { checkerErrors, checkerReply } from '../schemas/checkers.ts';
import { json } from '../schemas/openapi-content.ts';

/**
 * Every checker's POST, mounted from its descriptor (api/checkers/<name>/checker.ts), each followed by its
 * companion routes: the sandbox fixture registered in the app's `sandbox`, the meter by the checker's lane, the
 * request validated against the declared schemas, then the checker's handler.
 */
export function checkerRoutes(checkers: readonly CheckerDescriptor[], deps: CheckerDeps, sandbox: Sandbox): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: invalidInputHook<CallerEnv & SandboxEnv>() });
  for (const checker of checkers) {
    sandbox.register(checker.tool, { summary: checker.sandbox.summary, reply: () => checker.sandbox.reply(deps) });
    const handle = checker.handler(deps);
    const rules = intakeRules(checker, deps);
    // The route is built from the descriptor, so its request types are the descriptor's, not this module's:
    // the handler reads what the route validated through the request's untyped `valid`.
    const answer = (c: Context<CallerEnv & SandboxEnv>) => {
      const valid = c.req.valid.bind(c.req) as unknown as (target: 'query' | 'json' | 'form') => unknown;
      return handle({
        c,
        query: valid('query'),
        json: valid('json'),
        form: valid('form'),
        documents: () => {
          if (rules === null) throw new Error(`${checker.name} declares no intake and reads no document.`);
          return readDocuments(c, rules);
        },
      });
    };
    app.openapi(postRoute(checker, deps, sandbox), answer as never);
    const companions = checker.companions?.routes?.(deps);
    if (companions !== undefined) app.route('/', companions);
  }
  return app;
}

/**
 * The largest request body each checker's POST takes: its documents as base64 (a third larger than the 25 MB
 * each may be) plus 1 MB for the rest of the body. A request of several documents is bounded at three
 * full-size documents' worth, so one request never holds more than about 100 MB. Checkers that read no
 * document keep the default limit.
 */
export function checkerBodyLimits(checkers: readonly CheckerDescriptor[]): Record<string, number> {
  const base64Document = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4;
  return Object.fromEntries(checkers.flatMap((checker) => (checker.intake === undefined ? [] : [[checker.path, Math.min(checker.intake.maxDocuments, 3) * base64Document + 1024 * 1024]])));
}

function postRoute(checker: CheckerDescriptor, deps: CheckerDeps, sandbox: Sandbox): RouteConfig {
  const { route } = checker;
  const content = route.body.form === undefined
    ? json(route.body.json)
    : { 'application/json': { schema: route.body.json }, 'multipart/form-data': { schema: route.body.form } };
  const responses = checker.lane.kind === 'direct'
    ? { 200: { description: route.reply.description, content: json(route.reply.schema) }, ...route.errors }
    : { 200: checkerReply(route.reply.schema, route.reply.description), ...checkerErrors, ...route.errors };
  return createRoute({
    method: 'post',
    path: checker.path,
    tags: [CHECKER_TAG],
    summary: route.summary,
    description: route.description,
    middleware: [sandbox.middleware(checker.tool), ...(route.mediaType === undefined ? [] : [bodyMediaType(route.mediaType)]), metered({ meter: deps.meter, ...meterRule(checker.lane) })] as const,
    request: { ...(route.query === undefined ? {} : { query: route.query as never }), body: { required: route.body.required, content } },
    responses,
  });
}

/**
 * Which replies use the caller's unit, by lane: an analysis counts unless it was stored or the engine
 * failed; a judged reply unless the judge said not; a direct reply as its checker says. Stored results
 * are free where a lane stores them.
 */
function meterRule(lane: CheckerLane): Omit<MeteredOptions, 'meter'> {
  if (lane.kind === 'pool') return { countIf: countsAgainstAllowance, storedResultsFree: true };
  if (lane.kind === 'judge') return { countIf: judgedReplyCounts, ...(lane.stored ? { storedResultsFree: true } : {}) };
  return { countIf: lane.countIf };
}

function intakeRules(checker: CheckerDescriptor, deps: CheckerDeps): IntakeRules | null {
  const intake = checker.intake;
  if (intake === undefined) return null;
  return {
    checker: intake.subject,
    accepts: intake.accepts,
    maxDocuments: intake.maxDocuments,
    url: intake.url === 'fetch' ? { fetch: deps.fetchDocument } : 'unavailable',
    ...(intake.textField === true ? { textField: true } : {}),
  };
}
