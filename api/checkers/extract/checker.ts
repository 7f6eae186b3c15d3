import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { answer } from '../_runner/answer.ts';
import { cachedAnalysis } from '../_runner/cached-analysis.ts';
import type { CallerEnv } from '../../accounts/caller.ts';
import { invalidInputHook } from '../../schemas/invalid-input.ts';
import { documentBytes, documentFilename, documentUrl, freshArgument, freshSwitch, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { hasJsonBody, sandboxField, type SandboxEnv } from '../../schemas/common.ts';
import { CHECKER_TAG, defineChecker } from '../define-checker.ts';
import { capabilities, extractCapabilities, unavailableOptionsDetail } from './capabilities.ts';
import { extractOptionNames } from './options/types.ts';
import { extractRequestOptions, optionsFromQuery, type ExtractOptions } from './options.ts';
import { extractionResult } from './result.ts';
import { extractSandboxReply } from './sandbox.ts';

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

const CAPABILITIES_PATH = '/v1/extract/capabilities';

const capabilitiesRoute = createRoute({
  method: 'get',
  path: CAPABILITIES_PATH,
  tags: [CHECKER_TAG],
  summary: 'What each extract option accepts, works on and how well, and whether it is available',
  description: 'Free, needs no key and is never metered.',
  responses: { 200: { description: 'Every option of POST /v1/extract.', content: { 'application/json': { schema: capabilities } } } },
});

/** GET /v1/extract/capabilities: free, never metered. */
function capabilityRoutes(): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: invalidInputHook<CallerEnv & SandboxEnv>() });
  app.openapi(capabilitiesRoute, (c) => c.json(extractCapabilities(), 200));
  return app;
}

/**
 * POST /v1/extract (spec, Document checkers; Extract parameter rules) and its capabilities. The document is
 * never stored: only the result is kept, by the document's SHA-256 and the options.
 */
export default defineChecker({
  name: 'extract',
  tool: EXTRACT_TOOL,
  path: '/v1/extract',
  lane: { kind: 'pool', analysis: { moduleUrl: new URL('./analyse.ts', import.meta.url).href, exportName: 'analyseExtraction' } },
  intake: { subject: 'extractions', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff', 'docx', 'text', 'html'], maxDocuments: 1, url: 'fetch' },
  route: {
    summary: 'Extract fields (and tables, layout, chunks, …) from a document',
    description:
      'Reads up to 10 pages (text layer, OCR for pages without one) and returns each field as `{value, confidence, page}`: the ' +
      '`fields` you name, a `template` (payslip, tax_invoice, bank_statement, receipt, contract), or with neither the fields of the ' +
      'type the document is classified as. Options add one key each. With a multipart upload give parameters in the query; with ' +
      'JSON, in the body. Extraction is not verification, and the document is never stored. One unit of the weekly allowance per call.',
    query: ExtractQuery,
    body: { required: false, json: ExtractBody, form: ExtractForm },
    reply: { schema: extractionResult, description: 'The extraction result.' },
  },
  mcp: {
    title: 'Extract fields from a document',
    description:
      'Structured fields from a PDF, image, .docx, text or HTML document (`bytes_b64` with `filename`, or `url`; up to 25 MB, at ' +
      'most 10 pages read): name the `fields` (names, or {name, type, description}), or a `template` (payslip, tax_invoice, ' +
      'bank_statement, receipt, contract), or neither to have the document classified first. Each value comes with its ' +
      'confidence and page; `not_found` lists what was not located. `options` adds tables, grounding, classify, redact, layout, ' +
      'links, figures, chunks, split or flag_below (see extract_capabilities). Extraction is not verification, and the document ' +
      'is never stored. Uses one unit of the weekly allowance per call.',
    input: ExtractBody.extend({ fresh: freshArgument }),
    output: extractionResult,
    request: 'document',
  },
  sandbox: {
    summary: 'A one-page tax invoice with supplier, ABN, number, date, GST and total extracted; the buyer\'s ABN not found.',
    reply: () => extractSandboxReply(),
  },
  companions: {
    routes: capabilityRoutes,
    tools: [{
      name: 'extract_capabilities',
      title: 'What extraction options this server offers',
      description: 'Each extract option: what it accepts, which inputs it works on, how it works, whether it was measured (with the figure) and whether it is available here. Free.',
      route: { method: 'GET', path: CAPABILITIES_PATH },
      input: z.object({}),
      output: capabilities,
    }],
  },
  handler: (deps) => async ({ c, query, json, documents }) => {
    const intake = await documents();
    let options: ExtractOptions;
    if (hasJsonBody(c)) {
      const { bytes_b64: _bytes, url: _url, filename: _filename, sandbox: _sandbox, ...fromBody } = json!;
      const inQuery = Object.keys(c.req.queries()).filter((name) => !['stream', 'fresh', 'sandbox'].includes(name));
      if (inQuery.length > 0) return c.json({ detail: `With a JSON body give the extraction parameters in the body, not the query (${inQuery.join(', ')}).` }, 400);
      options = fromBody;
    } else {
      options = optionsFromQuery(c.req.queries());
    }
    const unavailable = unavailableOptionsDetail(options.options);
    if (unavailable !== null) return c.json({ detail: unavailable }, 400);
    return answer(c, deps, await cachedAnalysis(deps.cache, {
      checker: EXTRACT_TOOL,
      documents: intake.documents,
      namesShown: false,
      options,
      engineVersion: packageJson.version,
      fresh: query.fresh,
      stream: query.stream,
      now: deps.now(),
    }));
  },
});
