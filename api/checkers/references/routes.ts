import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { StateDb } from '../../../data/state/db.ts';
import type { CallerEnv } from '../../accounts/caller.ts';
import { invalidInputHook } from '../../schemas/invalid-input.ts';
import type { SandboxEnv } from '../../schemas/common.ts';
import { json } from '../../schemas/openapi-content.ts';
import { ErrorSchema } from '../../schemas/tender.ts';
import { CHECKER_TAG, type CheckerDeps } from '../define-checker.ts';
import { factCheckResult, type FactCheckResult } from './result.ts';
import { CHECK_ID_PATTERN, createFactCheckStore, FEEDBACK_TOOLS, recordFeedback } from './store.ts';

export const CheckIdParams = z.object({
  check_id: z.string().regex(CHECK_ID_PATTERN, { error: 'must be fc_ followed by 16 lowercase hex characters' }).openapi({ param: { name: 'check_id', in: 'path' }, example: 'fc_3f2a9c0d1e4b5a67' }),
});

export const FeedbackBody = z
  .strictObject({
    tool: z.enum(FEEDBACK_TOOLS, { error: `must be ${FEEDBACK_TOOLS.join(' or ')}` }).openapi({ description: 'The tool the feedback is about.' }),
    verdict: z.enum(['up', 'down'], { error: 'must be up or down' }),
    ref: z.string().trim().min(1).max(200, { error: 'must be at most 200 characters' }).optional().openapi({ description: 'What it is about: a `check_id`, or your own reference to the reply.' }),
    note: z.string().trim().max(2000, { error: 'must be at most 2000 characters' }).optional(),
  })
  .openapi('FeedbackRequest');

export const FeedbackReply = z
  .object({
    received: z.literal(true),
    recorded: z.boolean().describe('false when the feedback could not be stored just now; the call still succeeds'),
    feedback_id: z.string().nullable(),
  })
  .openapi('FeedbackReply');

export const FACT_CHECKS_PATH = '/v1/fact-checks';
export const FEEDBACK_PATH = '/v1/feedback';

const readRoute = createRoute({
  method: 'get',
  path: `${FACT_CHECKS_PATH}/{check_id}`,
  tags: [CHECKER_TAG],
  summary: 'A stored fact-check result',
  description: 'The latest result of POST /v1/verify-references for the same document and `deep` switch, by its `check_id`. Free.',
  request: { params: CheckIdParams },
  responses: {
    200: { description: 'The stored fact-check result.', content: json(factCheckResult) },
    400: { description: 'The id is not a fact-check id.', content: json(ErrorSchema) },
    404: { description: 'No fact-check has this id.', content: json(ErrorSchema) },
  },
});

const feedbackRoute = createRoute({
  method: 'post',
  path: FEEDBACK_PATH,
  tags: [CHECKER_TAG],
  summary: 'Say whether an AI-text estimate or a fact-check was useful',
  description: '`tool` detect_ai_text or verify_references, `verdict` up or down, optional `ref` and `note`. A failure to store it never fails the call. Not metered.',
  request: { body: { required: true, content: json(FeedbackBody) } },
  responses: {
    200: { description: 'The feedback was received (and, unless `recorded` is false, stored).', content: json(FeedbackReply) },
    422: { description: 'The body does not match the schema (for example an unknown verdict or tool).', content: json(ErrorSchema) },
  },
});

/** GET /v1/fact-checks/{check_id} (spec, Fact-check result), the latest result, free; and the feedback route. */
export function factCheckRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const store = createFactCheckStore(deps.state);
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: invalidInputHook<CallerEnv & SandboxEnv>() });
  app.openapi(readRoute, async (c) => {
    const { check_id: checkId } = c.req.valid('param');
    const stored = await store.byId(checkId);
    if (stored === undefined) {
      return c.json({ detail: `No fact-check has the id ${checkId}; fact-checks are made by POST /v1/verify-references, whose reply gives the id and its permalink.` }, 404);
    }
    return c.json(stored as FactCheckResult, 200);
  });
  app.route('/', feedbackRoutes({ state: deps.state, now: deps.now }));
  return app;
}

/** POST /v1/feedback (spec, Document checkers) on verify_references and detect_ai_text replies: a write failure never fails the call. */
export function feedbackRoutes(options: { state: StateDb; now: () => Date; log?: (error: unknown) => void }): OpenAPIHono {
  const app = new OpenAPIHono({ defaultHook: invalidInputHook() });
  const log = options.log ?? ((error: unknown) => console.error('POST /v1/feedback: feedback not stored:', error));
  app.openapi(feedbackRoute, async (c) => {
    const body = c.req.valid('json');
    try {
      const feedbackId = await recordFeedback(options.state, { tool: body.tool, verdict: body.verdict, ref: body.ref ?? null, note: body.note ?? null }, options.now());
      return c.json({ received: true as const, recorded: true, feedback_id: feedbackId }, 200);
    } catch (error) {
      log(error);
      return c.json({ received: true as const, recorded: false, feedback_id: null }, 200);
    }
  });
  return app;
}
