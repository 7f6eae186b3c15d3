import { answer } from '../_runner/answer.ts';
import { freshArgument } from '../../schemas/checkers.ts';
import { errorReply } from '../../schemas/openapi-content.ts';
import { defineChecker } from '../define-checker.ts';
import { warrantBundle, type WarrantBundle } from './bundle.ts';
import { WARRANT_PATH } from './paths.ts';
import { warrantReadRoutes } from './routes.ts';
import { warrantSandboxReply } from './sandbox.ts';
import { WarrantBody, WarrantCheckQuery, WarrantCheckSchema, WarrantFeedbackBody, WarrantFeedbackSchema, WarrantForm, WarrantIdParams, WarrantQuery, WarrantSchema } from './schemas.ts';
import { settleWarrant } from './settle.ts';
import { createWarrantStore } from './store.ts';
import { INSPECTION_VERSION } from './version.ts';

/** The sandbox registry's name for this tool, the pool's name of its analysis, and its MCP tool's name. */
export const WARRANT_TOOL = 'inspect_document';

/**
 * The forensic inspection (spec, Document checkers): POST /v1/warrants (multipart `file` or JSON `bytes_b64`;
 * `{url}` is 501) and the stored warrants' routes. A stored warrant for the same bytes answers a new upload,
 * free, unless `fresh=1` (or the engine has changed since).
 */
export default defineChecker({
  name: 'warrants',
  tool: WARRANT_TOOL,
  path: WARRANT_PATH,
  lane: { kind: 'pool', analysis: { moduleUrl: new URL('./analyse.ts', import.meta.url).href, exportName: 'analyseWarrant' } },
  intake: { subject: 'warrants', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'], maxDocuments: 1, url: 'unavailable' },
  route: {
    summary: 'Inspect a PDF or image for signs of editing (a forensic warrant)',
    description:
      'Reads the file\'s structure, revisions, metadata, fonts, drawing and (for invoices) arithmetic, and returns a stored warrant: ' +
      '`risk_band` (low, medium, high; `insufficient` when too little could be read; `error` when the file could not be parsed), ' +
      'the signals with where each was found, and what to do next. PDF, PNG, JPEG, WebP, BMP or TIFF up to 25 MB. Identical bytes ' +
      `return the stored warrant, free (check first with GET ${WARRANT_PATH}/check); \`fresh=1\` inspects again. A signal for review, ` +
      'never a fraud verdict. One unit of the weekly allowance per inspection.',
    query: WarrantQuery,
    body: { required: false, json: WarrantBody, form: WarrantForm },
    reply: { schema: WarrantSchema, description: 'The warrant.' },
    errors: { 501: errorReply('`url` was given: warrants read uploaded bytes only.') },
  },
  mcp: {
    title: 'Inspect a document for signs of editing',
    description:
      'Forensic inspection of a PDF or image (PNG, JPEG, WebP, BMP, TIFF; up to 25 MB) sent as `bytes_b64` with its `filename`: ' +
      'revisions and what each later save changed, signatures, scripts, metadata, fonts, covered or overdrawn text, image ' +
      'EXIF and JPEG traces, and invoice arithmetic. Returns a stored warrant: `risk_band` (low, medium, high; `insufficient` ' +
      'when too little could be read; `error` when it could not be parsed), each signal with where it was found, and a ' +
      'recommended action. A signal for a person to review, never a fraud verdict. The same bytes return the stored warrant ' +
      'free (`fresh: true` inspects again). URLs are not read. Uses one unit of the weekly allowance per inspection.',
    input: WarrantBody.extend({ fresh: freshArgument }),
    output: warrantBundle,
    request: 'document',
  },
  sandbox: {
    summary: 'An invoice PDF saved twice, the second save changing its total line: band medium, three signals.',
    reply: (deps) => warrantSandboxReply(deps.publicUrl),
  },
  companions: {
    routes: warrantReadRoutes,
    tools: [
      {
        name: 'check_warrant_cache',
        title: 'Find a stored warrant by file hash',
        description: "Whether a file (by its SHA-256, 64 lowercase hex) already has a warrant; inspecting it again would return that warrant free. Not metered.",
        route: { method: 'GET', path: `${WARRANT_PATH}/check` },
        input: WarrantCheckQuery,
        output: WarrantCheckSchema,
      },
      {
        name: 'get_warrant',
        title: 'Read a stored warrant',
        description: 'A stored warrant by its `warrant_id` (`warrant_` and 16 hex characters), with every signal. Not metered.',
        route: { method: 'GET', path: `${WARRANT_PATH}/{warrant_id}` },
        input: WarrantIdParams,
        output: warrantBundle,
      },
      {
        name: 'warrant_feedback',
        title: 'Rate a warrant',
        description: 'Say whether a warrant was useful: `verdict` up or down, with an optional `note`. Not metered.',
        route: { method: 'POST', path: `${WARRANT_PATH}/{warrant_id}/feedback` },
        input: WarrantIdParams.extend(WarrantFeedbackBody.shape),
        output: WarrantFeedbackSchema,
      },
    ],
  },
  handler(deps) {
    const store = createWarrantStore(deps.state);
    return async ({ c, query, documents: read }) => {
      const { documents } = await read();
      const document = documents[0]!;
      const now = deps.now();
      const stored = query.fresh ? undefined : await store.reusable(document.sha256, INSPECTION_VERSION);
      return answer<WarrantBundle>(c, deps, {
        documents,
        now,
        stream: query.stream,
        stored,
        lane: {
          kind: 'pool',
          analysis: WARRANT_TOOL,
          options: {},
          heartbeat: 'inspecting',
          settle: async (outcome) => await settleWarrant(outcome, document, now, store, deps.publicUrl),
        },
      });
    };
  },
});
