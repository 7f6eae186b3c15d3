import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { StateDb } from '../../data/state/db.ts';
import { FEEDBACK_TOOLS, recordFeedback } from '../checkers/references/store.ts';
import { errorReplies } from '../middleware/errors.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import { json } from '../schemas/openapi-content.ts';

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

const route = createRoute({
  method: 'post',
  path: '/v1/feedback',
  tags: ['Document checkers'],
  summary: 'Say whether an AI-text estimate or a fact-check was useful',
  description: '`tool` detect_ai_text or verify_references, `verdict` up or down, optional `ref` and `note`. A failure to store it never fails the call. Not metered.',
  request: { body: { required: true, content: json(FeedbackBody) } },
  responses: {
    200: { description: 'The feedback was received (and, unless `recorded` is false, stored).', content: json(FeedbackReply) },
    422: { description: 'The body does not match the schema (for example an unknown verdict or tool).', content: json(ErrorSchema) },
  },
});

/** POST /v1/feedback (spec, Document checkers): write failure never fails the call. */
export function feedbackRoutes(options: { state: StateDb; now: () => Date; log?: (error: unknown) => void }): OpenAPIHono {
  const app = new OpenAPIHono({ defaultHook: errorReplies().validationHook });
  const log = options.log ?? ((error: unknown) => console.error('POST /v1/feedback: feedback not stored:', error));
  app.openapi(route, (c) => {
    const body = c.req.valid('json');
    try {
      const feedbackId = recordFeedback(options.state, { tool: body.tool, verdict: body.verdict, ref: body.ref ?? null, note: body.note ?? null }, options.now());
      return c.json({ received: true as const, recorded: true, feedback_id: feedbackId }, 200);
    } catch (error) {
      log(error);
      return c.json({ received: true as const, recorded: false, feedback_id: null }, 200);
    }
  });
  return app;
}
