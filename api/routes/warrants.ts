import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { warrantAnalysis, warrantBundle, type WarrantAnalysis, type WarrantBundle } from '../checkers/warrants/bundle.ts';
import { warrantMarkdown } from '../checkers/warrants/report-md.ts';
import { createWarrantStore, WARRANT_ID_PATTERN, warrantIdOf, type WarrantStore } from '../checkers/warrants/store.ts';
import { INSPECTION_VERSION } from '../checkers/warrants/version.ts';
import { answerAnalysis, countsAgainstAllowance } from '../documents/answer.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { AnalysisOutcome } from '../documents/pool.ts';
import type { IntakeDocument } from '../documents/types.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, freshSwitch, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { malformedInputParams, sandboxField, strictQuery } from '../schemas/common.ts';
import type { StateDb } from '../../data/state/db.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { warrantSandboxReply } from './checker-sandbox.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

/** The sandbox registry's name for this tool, the pool's name of its analysis, and its MCP tool's name. */
export const WARRANT_TOOL = 'inspect_document';

export const WARRANT_LIMITATIONS =
  'A warrant lists forensic signals for a person to review; it is not a fraud verdict and not an automated decision. Benign ' +
  'structure (incremental saves from form filling, annotation or signing; linearisation; object streams) is common, and each ' +
  'signal says what it found and where so you can judge it. Nothing is checked with the issuer, and a clean result does not ' +
  'prove a document genuine: a file re-created from scratch after editing leaves few traces.';

/**
 * The warrant as the routes declare it: the bundle's fields as one object, so /openapi.json (and the MCP
 * tools published from it) shows a plain object rather than the analysis extended by reference (`allOf`).
 */
export const WarrantSchema = z.object(warrantBundle.shape).openapi('Warrant');

export const WarrantBody = z
  .strictObject({
    bytes_b64: documentBytes.optional(),
    filename: documentFilename.optional(),
    url: documentUrl.optional().openapi({ description: 'Not available for warrants: answers 501. Upload the file or send bytes_b64.' }),
    sandbox: sandboxField,
  })
  .openapi('WarrantRequest');

const WarrantForm = z.object({ file: uploadedFile.optional().openapi({ description: 'The PDF or image to inspect.' }) });

export const WarrantQuery = strictQuery({ stream: streamSwitch, fresh: freshSwitch });

const warrantId = z
  .string()
  .refine((value) => WARRANT_ID_PATTERN.test(value), { message: 'is not a warrant id (`warrant_` and 16 lowercase hex characters)', params: malformedInputParams })
  .openapi({ param: { name: 'warrant_id', in: 'path' }, example: 'warrant_3f1c0a9b7d2e4f68' });

export const WarrantIdParams = z.object({ warrant_id: warrantId });
export const WarrantReadQuery = strictQuery({
  format: z.enum(['json', 'md'], { error: 'must be json or md' }).default('json').openapi({ description: '`json` (default): the bundle; `md`: the report as Markdown.' }),
});
export const WarrantCheckQuery = strictQuery({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be the file\'s SHA-256 as 64 lowercase hex characters' }).openapi({ description: 'The SHA-256 of the file, lowercase hex.' }),
});
export const WarrantCheckSchema = z
  .object({
    cached: z.boolean(),
    warrant_id: z.string().optional(),
    permalink: z.string().optional(),
  })
  .openapi('WarrantCacheCheck');

export const WarrantFeedbackBody = z
  .strictObject({
    verdict: z.enum(['up', 'down'], { error: 'must be up or down' }),
    note: z.string().trim().max(2000, { error: 'must be at most 2000 characters' }).optional(),
  })
  .openapi('WarrantFeedbackRequest');
export const WarrantFeedbackSchema = z
  .object({ feedback_id: z.string(), warrant_id: z.string(), verdict: z.enum(['up', 'down']), note: z.string().nullable(), recorded_at: z.string() })
  .openapi('WarrantFeedback');

export interface WarrantRoutesOptions extends CheckerDeps {
  state: StateDb;
  /** Where permalinks point: the service's public origin. */
  publicUrl: string;
}

const rules: IntakeRules = { checker: 'warrants', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'], maxDocuments: 1, url: 'unavailable' };

/**
 * The forensic inspection routes (spec, Document checkers): POST /v1/warrants (multipart `file` or JSON
 * `bytes_b64`; `{url}` is 501), the cache check by SHA-256, the stored bundle as JSON or Markdown, its PDF
 * scorecard, and feedback on it. A stored warrant for the same bytes answers a new upload, free, unless
 * `fresh=1` (or the engine has changed since).
 */
export function warrantRoutes(options: WarrantRoutesOptions): OpenAPIHono<CallerEnv & SandboxEnv> {
  const store = createWarrantStore(options.state);
  const permalinkOf = (id: string) => `${options.publicUrl}/v1/warrants/${id}`;
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  options.sandbox.register(WARRANT_TOOL, {
    summary: 'An invoice PDF saved twice, the second save changing its total line: band medium, three signals.',
    reply: () => warrantSandboxReply(options.publicUrl),
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/warrants',
      tags: ['Document checkers'],
      summary: 'Inspect a PDF or image for signs of editing (a forensic warrant)',
      description:
        'Reads the file\'s structure, revisions, metadata, fonts, drawing and (for invoices) arithmetic, and returns a stored warrant: ' +
        '`risk_band` (low, medium, high; `insufficient` when too little could be read; `error` when the file could not be parsed), ' +
        'the signals with where each was found, and what to do next. PDF, PNG, JPEG, WebP, BMP or TIFF up to 25 MB. Identical bytes ' +
        'return the stored warrant, free (check first with GET /v1/warrants/check); `fresh=1` inspects again. A signal for review, ' +
        'never a fraud verdict. One unit of the weekly allowance per inspection.',
      middleware: [options.sandbox.middleware(WARRANT_TOOL), metered({ meter: options.meter, countIf: countsAgainstAllowance, storedResultsFree: true })] as const,
      request: {
        query: WarrantQuery,
        body: { required: false, content: { 'application/json': { schema: WarrantBody }, 'multipart/form-data': { schema: WarrantForm } } },
      },
      responses: {
        200: checkerReply(WarrantSchema, 'The warrant.'),
        ...checkerErrors,
        501: errorReply('`url` was given: warrants read uploaded bytes only.'),
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const { documents } = await readDocuments(c, rules);
      const document = documents[0]!;
      const now = options.now();
      const stored = query.fresh ? undefined : store.reusable(document.sha256, INSPECTION_VERSION);
      return answerAnalysis<WarrantBundle>(c, options, {
        analysis: WARRANT_TOOL,
        documents,
        options: {},
        now,
        stream: query.stream,
        heartbeat: 'inspecting',
        stored,
        settle: (outcome) => settleWarrant(outcome, document, now, store, permalinkOf),
      });
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/warrants/check',
      tags: ['Document checkers'],
      summary: 'Whether a file has a stored warrant, by its SHA-256',
      description: 'Check before uploading: a stored warrant is returned free by POST /v1/warrants. Not metered.',
      request: { query: WarrantCheckQuery },
      responses: {
        200: { description: '`{cached: true, warrant_id, permalink}` or `{cached: false}`.', content: json(WarrantCheckSchema) },
        400: errorReply('`sha256` is missing or not 64 lowercase hex characters.'),
      },
    }),
    (c) => {
      const bundle = store.reusable(c.req.valid('query').sha256, INSPECTION_VERSION);
      return c.json(bundle === undefined ? { cached: false } : { cached: true, warrant_id: bundle.warrant_id, permalink: bundle.permalink }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/warrants/{warrant_id}',
      tags: ['Document checkers'],
      summary: 'A stored warrant, as JSON or a Markdown report',
      request: { params: WarrantIdParams, query: WarrantReadQuery },
      responses: {
        200: { description: 'The warrant (`format=json`), or its report (`format=md`).', content: { ...json(WarrantSchema), 'text/markdown': { schema: z.string() } } },
        400: errorReply('The id is not a warrant id.'),
        404: errorReply('No warrant has this id.'),
      },
    }),
    (c) => {
      const bundle = storedOr404(store, c.req.valid('param').warrant_id);
      if (c.req.valid('query').format === 'md') return c.body(warrantMarkdown(bundle), 200, { 'content-type': 'text/markdown; charset=utf-8' });
      return c.json(bundle, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/warrants/{warrant_id}/report.pdf',
      tags: ['Document checkers'],
      summary: "A stored warrant's one-or-two-page PDF scorecard",
      request: { params: WarrantIdParams },
      responses: {
        200: { description: 'The scorecard.', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        400: errorReply('The id is not a warrant id.'),
        404: errorReply('No warrant has this id.'),
      },
    }),
    async (c) => {
      const bundle = storedOr404(store, c.req.valid('param').warrant_id);
      // pdf-lib loads on the first scorecard asked for, not in every server that never draws one.
      const { warrantReportPdf } = await import('../checkers/warrants/report-pdf.ts');
      const pdf = await warrantReportPdf(bundle);
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${bundle.warrant_id}.pdf"` });
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/warrants/{warrant_id}/feedback',
      tags: ['Document checkers'],
      summary: 'Say whether a warrant was useful',
      description: 'Stores `up` or `down` with an optional note, for the engine\'s makers to learn from. Not metered.',
      request: { params: WarrantIdParams, body: { required: true, content: json(WarrantFeedbackBody) } },
      responses: {
        201: { description: 'The feedback as stored.', content: json(WarrantFeedbackSchema) },
        400: errorReply('The id is not a warrant id, or the body is not JSON.'),
        404: errorReply('No warrant has this id.'),
        422: errorReply('The body does not match the schema (for example an unknown verdict).'),
      },
    }),
    (c) => {
      const { warrant_id: id } = c.req.valid('param');
      const body = c.req.valid('json');
      const recorded = store.addFeedback(id, { verdict: body.verdict, note: body.note ?? null }, options.now());
      if (recorded === null) return c.json({ detail: notFound(id) }, 404);
      return c.json(recorded, 201);
    },
  );
  return app;
}

function storedOr404(store: WarrantStore, id: string): WarrantBundle {
  const bundle = store.byId(id);
  if (bundle === undefined) throw new HTTPException(404, { message: notFound(id) });
  return bundle;
}

function notFound(id: string): string {
  return `No warrant has the id ${id}; warrants are made by POST /v1/warrants, and GET /v1/warrants/check?sha256=… finds one by its file's hash.`;
}

/**
 * The warrant for an outcome: the analysis as the engine gave it, or, when the engine stopped at a limit,
 * an `error` warrant saying why (kept for its permalink, not reused, not counted).
 */
function settleWarrant(
  outcome: AnalysisOutcome<unknown>,
  document: IntakeDocument,
  now: Date,
  store: WarrantStore,
  permalinkOf: (id: string) => string,
): { reply: WarrantBundle; engineFailed: boolean } {
  const parsed = outcome.ok ? warrantAnalysis.safeParse(outcome.result) : null;
  const analysis: WarrantAnalysis = parsed?.success ? parsed.data : engineFailure(document, outcome.ok ? `the engine's result did not match the warrant schema (${parsed!.error.issues[0]?.message}).` : outcome.detail);
  const engineFailed = !parsed?.success;
  const id = warrantIdOf(document.sha256);
  const bundle: WarrantBundle = {
    warrant_id: id,
    ...analysis,
    filename: document.filename,
    size_bytes: document.bytes.byteLength,
    inspected_at: now.toISOString(),
    engine_version: INSPECTION_VERSION,
    permalink: permalinkOf(id),
    report_pdf: `${permalinkOf(id)}/report.pdf`,
    limitations: WARRANT_LIMITATIONS,
  };
  store.save(bundle, !engineFailed);
  return { reply: bundle, engineFailed };
}

function engineFailure(document: IntakeDocument, detail: string): WarrantAnalysis {
  return {
    inspection_version: INSPECTION_VERSION,
    file_kind: document.kind === 'image' ? 'image' : 'pdf',
    sha256: document.sha256,
    risk_band: 'error',
    inspection_quality: 'failed',
    recommended_action: 'Review the file by hand in a viewer you trust. Inspecting it again may finish; nothing was counted against your allowance.',
    summary: {
      headline: `The inspection could not finish: ${detail}`,
      counts: { tampering: 0, structure: 0, metadata: 0, arithmetic: 0 },
      band_rule: 'error: the engine stopped before it finished, so no signal could be weighed.',
      pages: null,
      revisions: null,
      producer: null,
      creator: null,
    },
    signals: [],
  };
}
