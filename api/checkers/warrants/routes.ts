import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { CallerEnv } from '../../accounts/caller.ts';
import { invalidInputHook } from '../../schemas/invalid-input.ts';
import type { SandboxEnv } from '../../schemas/common.ts';
import { errorReply, json } from '../../schemas/openapi-content.ts';
import { CHECKER_TAG, type CheckerDeps } from '../define-checker.ts';
import type { WarrantBundle } from './bundle.ts';
import { WARRANT_PATH } from './paths.ts';
import { warrantMarkdown } from './report-md.ts';
import { WarrantCheckQuery, WarrantCheckSchema, WarrantFeedbackBody, WarrantFeedbackSchema, WarrantIdParams, WarrantReadQuery, WarrantSchema } from './schemas.ts';
import { createWarrantStore, type WarrantStore } from './store.ts';
import { INSPECTION_VERSION } from './version.ts';

const checkRoute = createRoute({
  method: 'get',
  path: `${WARRANT_PATH}/check`,
  tags: [CHECKER_TAG],
  summary: 'Whether a file has a stored warrant, by its SHA-256',
  description: `Check before uploading: a stored warrant is returned free by POST ${WARRANT_PATH}. Not metered.`,
  request: { query: WarrantCheckQuery },
  responses: {
    200: { description: '`{cached: true, warrant_id, permalink}` or `{cached: false}`.', content: json(WarrantCheckSchema) },
    400: errorReply('`sha256` is missing or not 64 lowercase hex characters.'),
  },
});

const readRoute = createRoute({
  method: 'get',
  path: `${WARRANT_PATH}/{warrant_id}`,
  tags: [CHECKER_TAG],
  summary: 'A stored warrant, as JSON or a Markdown report',
  request: { params: WarrantIdParams, query: WarrantReadQuery },
  responses: {
    200: { description: 'The warrant (`format=json`), or its report (`format=md`).', content: { ...json(WarrantSchema), 'text/markdown': { schema: z.string() } } },
    400: errorReply('The id is not a warrant id.'),
    404: errorReply('No warrant has this id.'),
  },
});

const reportRoute = createRoute({
  method: 'get',
  path: `${WARRANT_PATH}/{warrant_id}/report.pdf`,
  tags: [CHECKER_TAG],
  summary: "A stored warrant's one-or-two-page PDF scorecard",
  request: { params: WarrantIdParams },
  responses: {
    200: { description: 'The scorecard.', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
    400: errorReply('The id is not a warrant id.'),
    404: errorReply('No warrant has this id.'),
  },
});

const feedbackRoute = createRoute({
  method: 'post',
  path: `${WARRANT_PATH}/{warrant_id}/feedback`,
  tags: [CHECKER_TAG],
  summary: 'Say whether a warrant was useful',
  description: 'Stores `up` or `down` with an optional note, for the engine\'s makers to learn from. Not metered.',
  request: { params: WarrantIdParams, body: { required: true, content: json(WarrantFeedbackBody) } },
  responses: {
    201: { description: 'The feedback as stored.', content: json(WarrantFeedbackSchema) },
    400: errorReply('The id is not a warrant id, or the body is not JSON.'),
    404: errorReply('No warrant has this id.'),
    422: errorReply('The body does not match the schema (for example an unknown verdict).'),
  },
});

/**
 * The stored warrants' routes (spec, Document checkers): the cache check by SHA-256, the bundle as JSON or
 * Markdown, its PDF scorecard, and feedback on it. None is metered.
 */
export function warrantReadRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const store = createWarrantStore(deps.state);
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: invalidInputHook<CallerEnv & SandboxEnv>() });
  app.openapi(checkRoute, async (c) => {
    const bundle = await store.reusable(c.req.valid('query').sha256, INSPECTION_VERSION);
    return c.json(bundle === undefined ? { cached: false } : { cached: true, warrant_id: bundle.warrant_id, permalink: bundle.permalink }, 200);
  });
  app.openapi(readRoute, async (c) => {
    const bundle = await storedOr404(store, c.req.valid('param').warrant_id);
    if (c.req.valid('query').format === 'md') return c.body(warrantMarkdown(bundle), 200, { 'content-type': 'text/markdown; charset=utf-8' });
    return c.json(bundle, 200);
  });
  app.openapi(reportRoute, async (c) => {
    const bundle = await storedOr404(store, c.req.valid('param').warrant_id);
    // pdf-lib loads on the first scorecard asked for, not in every server that never draws one.
    const { warrantReportPdf } = await import('./report-pdf.ts');
    const pdf = await warrantReportPdf(bundle);
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${bundle.warrant_id}.pdf"` });
  });
  app.openapi(feedbackRoute, async (c) => {
    const { warrant_id: id } = c.req.valid('param');
    const body = c.req.valid('json');
    const recorded = await store.addFeedback(id, { verdict: body.verdict, note: body.note ?? null }, deps.now());
    if (recorded === null) return c.json({ detail: notFound(id) }, 404);
    return c.json(recorded, 201);
  });
  return app;
}

async function storedOr404(store: WarrantStore, id: string): Promise<WarrantBundle> {
  const bundle = await store.byId(id);
  if (bundle === undefined) throw new HTTPException(404, { message: notFound(id) });
  return bundle;
}

function notFound(id: string): string {
  return `No warrant has the id ${id}; warrants are made by POST ${WARRANT_PATH}, and GET ${WARRANT_PATH}/check?sha256=… finds one by its file's hash.`;
}
