import { z } from '@hono/zod-openapi';
import { answer } from '../_runner/answer.ts';
import { documentBytes, documentFilename, documentUrl, querySwitch, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import type { RouteRequest } from '../../schemas/mcp-tool.ts';
import { judgeReferences, TIME_BUDGET_MS } from './analyse.ts';
import { factCheckResult, type FactCheckResult } from './result.ts';
import { CheckIdParams, FACT_CHECKS_PATH, FEEDBACK_PATH, factCheckRoutes, FeedbackBody, FeedbackReply } from './routes.ts';
import { referencesSandboxReply } from './sandbox.ts';
import { checkIdOf, createFactCheckStore } from './store.ts';

/** The sandbox registry's name for this tool and its MCP tool's name. */
export const VERIFY_REFERENCES_TOOL = 'verify_references';
const VERIFY_REFERENCES_PATH = '/v1/verify-references';

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

/** `deep` travels in the query, as the route reads it; the rest is the JSON body. */
function verifyRequest(input: Record<string, unknown>): RouteRequest {
  const { deep, ...body } = input;
  return { path: deep === true ? `${VERIFY_REFERENCES_PATH}?deep=1` : VERIFY_REFERENCES_PATH, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } };
}

/**
 * POST /v1/verify-references, GET /v1/fact-checks/{check_id} and POST /v1/feedback (spec, Document checkers;
 * Fact-check result): the document is read to text in the pool, judged in the main thread with the outside clients.
 */
export default defineChecker({
  name: 'references',
  tool: VERIFY_REFERENCES_TOOL,
  path: VERIFY_REFERENCES_PATH,
  lane: { kind: 'judge', stored: false },
  intake: { subject: 'reference checks', accepts: ['pdf', 'docx', 'text', 'html'], maxDocuments: 1, url: 'fetch', textField: true },
  route: {
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
    query: VerifyReferencesQuery,
    body: { required: false, json: VerifyReferencesBody, form: VerifyReferencesForm },
    reply: { schema: factCheckResult, description: 'The fact-check result.' },
  },
  mcp: {
    title: "Check a document's references and arithmetic",
    description:
      'One document (`text`, or `bytes_b64` with `filename` for a PDF, .docx, text or HTML file, or `url`): every link is classified ' +
      'live, archived (dead now, the Wayback Machine has a copy) or dead with its evidence (one failed attempt is unreachable_now), ' +
      'every DOI is resolved on Crossref and its registered title compared with the cited one, citations without a DOI are looked ' +
      'up on Crossref, and the sums, totals, percentages and year spans the document states are recomputed. `deep: true` also ' +
      'judges each citing sentence against the page it cites (supports, contradicts or unclear). The result is kept under ' +
      '`check_id` (see get_fact_check). Uses one unit of the weekly allowance, unless nothing could be checked.',
    input: VerifyReferencesBody.extend({ deep: z.boolean().optional().describe('true: also judge each citing sentence against the cited page (slower)') }),
    output: factCheckResult,
    request: verifyRequest,
  },
  sandbox: {
    summary: 'A council report citing four sources: two live links, one archived, one DOI whose registered title differs; one total that does not add up.',
    reply: (deps) => referencesSandboxReply(deps.publicUrl),
  },
  agentNote:
    `\`POST ${VERIFY_REFERENCES_PATH}\` also takes \`{"text": "…"}\` and asks the outside world (each link tried once, Crossref, the Wayback ` +
    'Machine), so it checks again on every call instead of answering a stored result; the latest is kept under its `check_id` ' +
    `(\`GET ${FACT_CHECKS_PATH}/{check_id}\`). An outside service that is not configured or did not answer is named per item ` +
    '(`not_checked`, `unreachable_now`), never turned into a finding, and a call where nothing could be checked is not counted. ' +
    `\`POST ${FEEDBACK_PATH}\` takes \`{tool, verdict: up or down, ref?, note?}\` for verify_references and detect_ai_text.`,
  companions: {
    routes: factCheckRoutes,
    tools: [
      {
        name: 'get_fact_check',
        title: 'Read a stored fact-check',
        description: 'The latest verify_references result for a `check_id` (`fc_` and 16 hex characters). Not metered.',
        route: { method: 'GET', path: `${FACT_CHECKS_PATH}/{check_id}` },
        input: CheckIdParams,
        output: factCheckResult,
      },
      {
        name: 'checker_feedback',
        title: 'Rate an AI-text estimate or a fact-check',
        description: 'Say whether a detect_ai_text or verify_references reply was useful: `tool`, `verdict` up or down, optional `ref` (e.g. the check_id) and `note`. Not metered.',
        route: { method: 'POST', path: FEEDBACK_PATH },
        input: FeedbackBody,
        output: FeedbackReply,
      },
    ],
  },
  handler(deps) {
    const store = createFactCheckStore(deps.state);
    const permalinkOf = (checkId: string) => `${deps.publicUrl}${FACT_CHECKS_PATH}/${checkId}`;
    return async ({ c, query, documents }) => {
      const intake = await documents();
      const now = deps.now();
      const checkId = checkIdOf(intake.documents.map((document) => document.sha256), query.deep);
      return answer<FactCheckResult>(c, deps, {
        documents: intake.documents,
        now,
        stream: query.stream,
        stored: undefined,
        lane: {
          kind: 'judge',
          read: { html_links: true, columns: true },
          async judge(text, services, context) {
            const judged = await judgeReferences(text, { deep: query.deep, budget: AbortSignal.timeout(TIME_BUDGET_MS) }, services, context);
            const reply: FactCheckResult = { check_id: checkId, ...judged.result, permalink: permalinkOf(checkId) };
            await store.save(checkId, reply, now);
            return { reply, counts: judged.counts };
          },
        },
      });
    };
  },
});
