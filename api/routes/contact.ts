import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { newId } from '../../lib/tokens.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import type { StateDb } from '../../data/state/db.ts';
import { json } from '../schemas/openapi-content.ts';

export interface ContactRoutesOptions {
  state: StateDb;
  now?: () => Date;
}

/** Quicker than this from the form opening to its submission, no person typed the message. */
const FASTEST_HUMAN_SUBMISSION_MS = 3000;

const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });
const email = z.email({ error: 'must be an email address such as name@example.com' }).max(254, { error: 'must be at most 254 characters' });

const ContactBody = z
  .strictObject({
    name: text(200),
    email,
    message: text(5000),
    company: text(200).optional(),
    // Any length: a filled honeypot must meet the same reply as a kept message, never a 422.
    website: z
      .string()
      .optional()
      .openapi({ description: 'Leave empty. The form hides this field from people; a submission that fills it is dropped.' }),
    started_at: z
      .union([z.iso.datetime({ offset: true }), z.number().int().nonnegative()], { error: 'must be an ISO-8601 instant or epoch milliseconds' })
      .optional()
      .openapi({ description: 'When the form was opened (ISO-8601 or epoch milliseconds), set by the form. A submission under 3 s later is dropped.' }),
  })
  .openapi('ContactMessage');

const ReceivedSchema = z.object({ received: z.literal(true) }).openapi('Received');

const wrongMediaType = { description: 'The body is not JSON.', content: json(ErrorSchema) };
const unprocessable = { description: 'The body does not match the schema; `detail` names the field.', content: json(ErrorSchema) };

const contactRoute = createRoute({
  method: 'post',
  path: '/v1/contact',
  tags: ['Contact'],
  summary: 'Send a message to the team',
  description: 'Submissions that fill the hidden `website` field, or arrive under 3 s after `started_at`, are dropped with the same reply.',
  middleware: [bodyMediaType('json')] as const,
  request: { body: { required: true, content: json(ContactBody) } },
  responses: { 202: { description: 'Received.', content: json(ReceivedSchema) }, 415: wrongMediaType, 422: unprocessable },
});

/**
 * POST /v1/contact. Submissions that look automated (the honeypot filled, or sent faster than a person
 * types) get the same reply as kept ones, so a bot learns nothing. Mount it after `caller()`.
 * (POST /v1/feedback is `api/checkers/references/routes.ts`.)
 *
 * @example
 * app.use('*', caller({ state }));
 * app.route('/', contactRoutes({ state }));
 */
export function contactRoutes(options: ContactRoutesOptions): OpenAPIHono<CallerEnv> {
  const { state } = options;
  const now = options.now ?? (() => new Date());
  const app = new OpenAPIHono<CallerEnv>({ defaultHook: invalidInputAnswers<CallerEnv>(422) });
  const received = { received: true as const };

  app.openapi(contactRoute, async (c) => {
    const body = c.req.valid('json');
    if (!looksAutomated(body, now())) {
      await state.run(
        'INSERT INTO contact_submissions (submission_id, name, email, company, message, account_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        newId('contact_'),
        body.name,
        body.email,
        body.company ?? null,
        body.message,
        accountOf(c),
        now().toISOString(),
      );
    }
    return c.json(received, 202);
  });

  return app;
}

/**
 * A filled honeypot, or a form sent within 3 s of opening. A `started_at` in the future says only that
 * the sender's clock runs ahead of ours, so it is kept rather than risk dropping a person's message.
 */
function looksAutomated(body: z.infer<typeof ContactBody>, now: Date): boolean {
  if (body.website !== undefined && body.website.trim() !== '') return true;
  if (body.started_at === undefined) return false;
  const elapsed = now.getTime() - new Date(body.started_at).getTime();
  return elapsed >= 0 && elapsed < FASTEST_HUMAN_SUBMISSION_MS;
}

function accountOf(c: Context<CallerEnv>): string | null {
  const caller = c.get('caller');
  return caller.kind === 'anonymous' ? null : caller.accountId;
}
