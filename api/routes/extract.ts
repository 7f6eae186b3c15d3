import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { capabilities, extractCapabilities, unavailableOptionsDetail } from '../checkers/extract/capabilities.ts';
import { extractOptionNames } from '../checkers/extract/options/types.ts';
import { extractRequestOptions, optionsFromQuery, type ExtractOptions } from '../checkers/extract/options.ts';
import { extractionResult } from '../checkers/extract/result.ts';
import { answerCached, countsAgainstAllowance } from '../documents/answer.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, freshSwitch, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { hasJsonBody, sandboxField } from '../schemas/common.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { extractSandboxReply } from './checker-sandbox.ts';

/** The sandbox registry's name for this tool, the pool's name of its analysis, and its MCP tool's name. */
export const EXTRACT_TOOL = 'extract_document';

/** The JSON body: the document, the extraction parameters (spec, Extract parameter rules) and the sandbox switch. */
export const ExtractBody = extractRequestOptions
  .extend({
    bytes_b64: documentBytes.optional(),
    url: documentUrl.optional(),
    filename: documentFilename.optional(),
    sandbox: sandboxField,
  })
  .strict()
  .openapi('ExtractRequest');

const ExtractForm = z.object({ file: uploadedFile.optional().openapi({ description: 'The document: PDF, image, .docx, text or HTML.' }) });

/** The query: the route's switches, and with a multipart upload the extraction parameters in their flat form. */
export const ExtractQuery = z
  .looseObject({
    stream: streamSwitch,
    fresh: freshSwitch,
    template: z.string().optional().openapi({ description: 'With a multipart upload: payslip, tax_invoice, bank_statement, receipt or contract.' }),
    country: z.string().optional().openapi({ description: 'With a multipart upload: a country hint such as AU, IN or US.' }),
    max_pages: z.string().optional().openapi({ type: 'integer', description: 'With a multipart upload: pages read, at most 10.' }),
    render_scale: z.string().optional().openapi({ type: 'number', description: 'With a multipart upload: 1, 1.5, 2 (default), 3 or 4.' }),
    fields: z.union([z.string(), z.array(z.string())]).optional().openapi({ description: 'With a multipart upload: repeat for each field name.' }),
  })
  .openapi({ description: `With a multipart upload, options are flat parameters: ${extractOptionNames.join(', ')} (\`tables=true\`, \`flag_below=0.7\`, settings as \`chunks.strategy=by_title\`).` });

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'extractions',
  accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff', 'docx', 'text', 'html'],
  maxDocuments: 1,
  url: { fetch: deps.fetchDocument },
});

/**
 * POST /v1/extract and GET /v1/extract/capabilities (spec, Document checkers; Extract parameter rules). The
 * document is never stored: only the result is kept, by the document's SHA-256 and the options.
 */
export function extractRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(EXTRACT_TOOL, {
    summary: 'A one-page tax invoice with supplier, ABN, number, date, GST and total extracted; the buyer\'s ABN not found.',
    reply: () => extractSandboxReply(),
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/extract',
      tags: ['Document checkers'],
      summary: 'Extract fields (and tables, layout, chunks, …) from a document',
      description:
        'Reads up to 10 pages (text layer, OCR for pages without one) and returns each field as `{value, confidence, page}`: the ' +
        '`fields` you name, a `template` (payslip, tax_invoice, bank_statement, receipt, contract), or with neither the fields of the ' +
        'type the document is classified as. Options add one key each. With a multipart upload give parameters in the query; with ' +
        'JSON, in the body. Extraction is not verification, and the document is never stored. One unit of the weekly allowance per call.',
      middleware: [deps.sandbox.middleware(EXTRACT_TOOL), metered({ meter: deps.meter, countIf: countsAgainstAllowance, storedResultsFree: true })] as const,
      request: {
        query: ExtractQuery,
        body: { required: false, content: { 'application/json': { schema: ExtractBody }, 'multipart/form-data': { schema: ExtractForm } } },
      },
      responses: { 200: checkerReply(extractionResult, 'The extraction result.'), ...checkerErrors },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const intake = await readDocuments(c, rules(deps));
      let options: ExtractOptions;
      if (hasJsonBody(c)) {
        const { bytes_b64: _bytes, url: _url, filename: _filename, sandbox: _sandbox, ...fromBody } = c.req.valid('json') as z.output<typeof ExtractBody>;
        const inQuery = Object.keys(c.req.queries()).filter((name) => !['stream', 'fresh', 'sandbox'].includes(name));
        if (inQuery.length > 0) return c.json({ detail: `With a JSON body give the extraction parameters in the body, not the query (${inQuery.join(', ')}).` }, 400);
        options = fromBody;
      } else {
        options = optionsFromQuery(c.req.queries());
      }
      const unavailable = unavailableOptionsDetail(options.options);
      if (unavailable !== null) return c.json({ detail: unavailable }, 400);
      return answerCached(c, deps, {
        checker: EXTRACT_TOOL,
        documents: intake.documents,
        namesShown: false,
        options,
        engineVersion: packageJson.version,
        fresh: query.fresh,
        stream: query.stream,
        now: deps.now(),
      });
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/extract/capabilities',
      tags: ['Document checkers'],
      summary: 'What each extract option accepts, works on and how well, and whether it is available',
      description: 'Free, needs no key and is never metered.',
      responses: { 200: { description: 'Every option of POST /v1/extract.', content: { 'application/json': { schema: capabilities } } } },
    }),
    (c) => c.json(extractCapabilities(), 200),
  );
  return app;
}
