import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { StateDb } from '../../data/state/db.ts';
import { judgeReferences, TIME_BUDGET_MS } from '../checkers/references/analyse.ts';
import { factCheckResult, type FactCheckResult } from '../checkers/references/result.ts';
import { CHECK_ID_PATTERN, checkIdOf, createFactCheckStore } from '../checkers/references/store.ts';
import { answerWithServices, judgedReplyCounts } from '../documents/answer-services.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, querySwitch, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../schemas/common.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { referencesSandboxReply } from './checker-sandbox.ts';
import { json } from '../schemas/openapi-content.ts';

/** The sandbox registry's name for this tool and its MCP tool's name. */
export const VERIFY_REFERENCES_TOOL = 'verify_references';

export const VerifyReferencesQuery = strictQuery({
  deep: querySwitch('`1` also reads each cited page and judges the sentence citing it: `supports`, `contradicts` or `unclear` (slower).'),
  stream: streamSwitch,
});

export const VerifyReferencesBody = z
  .strictObject({
    text: z.string().max(5_000_000).optional().openapi({ description: 'The document as text (plain text or HTML).' }),
    bytes_b64: documentBytes.optional(),
    url: documentUrl.optional(),
    filename: documentFilename.optional(),
    sandbox: sandboxField,
  })
  .openapi('VerifyReferencesRequest', { description: 'One document: `text`, `bytes_b64` (PDF, .docx, text or HTML, with `filename`), or `url`.' });

const VerifyReferencesForm = z.object({ file: uploadedFile.optional().openapi({ description: 'The document: PDF, .docx, text or HTML.' }) });

export const CheckIdParams = z.object({
  check_id: z.string().regex(CHECK_ID_PATTERN, { error: 'must be fc_ followed by 16 lowercase hex characters' }).openapi({ param: { name: 'check_id', in: 'path' }, example: 'fc_3f2a9c0d1e4b5a67' }),
});

const verifyRoute = (deps: CheckerDeps) => createRoute({
  method: 'post',
  path: '/v1/verify-references',
  tags: ['Document checkers'],
  summary: "Check a document's references and arithmetic",
  description:
    'Finds the URLs, DOIs and scholarly citations in a document (PDF, .docx, text or HTML; `text`, `bytes_b64`, `url` or multipart ' +
    '`file`). Each link is classified `live`, `archived` (dead now, the Wayback Machine has a copy) or `dead` with its evidence ' +
    '(one failed attempt is `unreachable_now`); each DOI is resolved on Crossref and its registered title compared with the ' +
    'cited one; citations without a DOI are looked up on Crossref. `internal_consistency` recomputes the sums, totals, ' +
    'percentages and year spans the document states. `deep=1` also judges each citing sentence against the page it cites. ' +
    'An HTML page is read without its navigation and page furniture: its own links and links to its own site are not ' +
    'references; its reference lists and their inline markers are; numbers in citation markers, footnotes, page numbers ' +
    'and dates are never summed. The result is stored under `check_id` (its permalink). A call uses one unit of the weekly ' +
    'allowance when it produced a real result (a reference answered by an outside service, or a calculation recomputed); ' +
    'one with nothing to check, or whose every outside check went unanswered, is not counted.',
  middleware: [deps.sandbox.middleware(VERIFY_REFERENCES_TOOL), metered({ meter: deps.meter, countIf: judgedReplyCounts })] as const,
  request: {
    query: VerifyReferencesQuery,
    body: { required: false, content: { 'application/json': { schema: VerifyReferencesBody }, 'multipart/form-data': { schema: VerifyReferencesForm } } },
  },
  responses: { 200: checkerReply(factCheckResult, 'The fact-check result.'), ...checkerErrors },
});

const readRoute = createRoute({
  method: 'get',
  path: '/v1/fact-checks/{check_id}',
  tags: ['Document checkers'],
  summary: 'A stored fact-check result',
  description: 'The latest result of POST /v1/verify-references for the same document and `deep` switch, by its `check_id`. Free.',
  request: { params: CheckIdParams },
  responses: {
    200: { description: 'The stored fact-check result.', content: json(factCheckResult) },
    400: { description: 'The id is not a fact-check id.', content: json(ErrorSchema) },
    404: { description: 'No fact-check has this id.', content: json(ErrorSchema) },
  },
});

/**
 * POST /v1/verify-references and GET /v1/fact-checks/{check_id} (spec, Document checkers; Fact-check
 * result): the document is read to text in the pool, judged in the main thread with the outside clients.
 */
export function verifyReferencesRoutes(deps: CheckerDeps & { state: StateDb; publicUrl: string }): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  const store = createFactCheckStore(deps.state);
  const permalinkOf = (checkId: string) => `${deps.publicUrl}/v1/fact-checks/${checkId}`;
  const rules: IntakeRules = { checker: 'reference checks', accepts: ['pdf', 'docx', 'text', 'html'], maxDocuments: 1, url: { fetch: deps.fetchDocument }, textField: true };
  deps.sandbox.register(VERIFY_REFERENCES_TOOL, {
    summary: 'A council report citing four sources: two live links, one archived, one DOI whose registered title differs; one total that does not add up.',
    reply: () => referencesSandboxReply(deps.publicUrl),
  });

  app.openapi(verifyRoute(deps), async (c) => {
    const query = c.req.valid('query');
    const intake = await readDocuments(c, rules);
    const now = deps.now();
    const checkId = checkIdOf(intake.documents.map((document) => document.sha256), query.deep);
    return answerWithServices<FactCheckResult>(c, deps, {
      documents: intake.documents,
      read: { html_links: true, columns: true },
      now,
      stream: query.stream,
      async judge(text, services, context) {
        const judged = await judgeReferences(text, { deep: query.deep, budget: AbortSignal.timeout(TIME_BUDGET_MS) }, services, context);
        const reply: FactCheckResult = { check_id: checkId, ...judged.result, permalink: permalinkOf(checkId) };
        store.save(checkId, reply, now);
        return { reply, counts: judged.counts };
      },
    });
  });

  app.openapi(readRoute, (c) => {
    const { check_id: checkId } = c.req.valid('param');
    const stored = store.byId(checkId);
    if (stored === undefined) {
      return c.json({ detail: `No fact-check has the id ${checkId}; fact-checks are made by POST /v1/verify-references, whose reply gives the id and its permalink.` }, 404);
    }
    return c.json(stored as FactCheckResult, 200);
  });
  return app;
}
