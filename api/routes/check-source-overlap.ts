import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { judgeOverlap } from '../checkers/overlap/analyse.ts';
import { overlapResult, type OverlapResult } from '../checkers/overlap/result.ts';
import { answerWithServices, judgedReplyCounts } from '../documents/answer-services.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { hasJsonBody, parseJsonBody, sandboxField, strictQuery } from '../schemas/common.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { overlapSandboxReply } from './checker-sandbox.ts';

/** The sandbox registry's name for this tool, and its MCP tool's name. */
export const OVERLAP_TOOL = 'check_source_overlap';

export const SourceOverlapQuery = strictQuery({ stream: streamSwitch });

export const SourceOverlapBody = z
  .strictObject({
    text: z.string().optional().openapi({ description: "The document's text." }),
    bytes_b64: documentBytes.optional(),
    filename: documentFilename.optional(),
    url: documentUrl.optional().openapi({ description: 'A public http(s) address to read the document from; pages on its own host are never counted as sources.' }),
    sandbox: sandboxField,
  })
  .openapi('SourceOverlapRequest', { description: 'One document: `text`, `{bytes_b64, filename}` or `{url}`.' });

const SourceOverlapForm = z.object({ file: uploadedFile.optional().openapi({ description: 'The document: PDF, text, HTML or .docx.' }) });

const route = (deps: CheckerDeps) => createRoute({
  method: 'post',
  path: '/v1/check-source-overlap',
  tags: ['Document checkers'],
  summary: 'Find passages of a document published word for word on the public web',
  description:
    "Fingerprints the document's text (winnowed word 5-grams), searches the web for its most distinctive passages, reads the " +
    'pages found (never those on the `url` input\'s own host) and reports every passage of at least 10 words that a page holds ' +
    'word for word, with its span in the document (offsets into the text as read, pages joined by a blank line) and in the ' +
    'page. `overlap_ratio` is the share of words inside a match, `overlap_band` its band. Paraphrase is not checked. The ' +
    'check abstains on short texts and non-prose (tables, forms, code, other languages), and says so when no search ' +
    'provider is configured or answering. PDF, text, HTML or .docx. Only an `assessed` outcome uses one unit of the weekly allowance.',
  middleware: [deps.sandbox.middleware(OVERLAP_TOOL), metered({ meter: deps.meter, countIf: judgedReplyCounts })] as const,
  request: {
    query: SourceOverlapQuery,
    body: { required: false, content: { 'application/json': { schema: SourceOverlapBody }, 'multipart/form-data': { schema: SourceOverlapForm } } },
  },
  responses: { 200: checkerReply(overlapResult, 'The source-overlap result.'), ...checkerErrors },
});

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'source-overlap checks',
  accepts: ['pdf', 'text', 'html', 'docx'],
  maxDocuments: 1,
  url: { fetch: deps.fetchDocument },
  textField: true,
});

/** The host of a JSON body's `url` document: its pages are the document's own, not sources of it. */
async function documentHost(c: Parameters<typeof hasJsonBody>[0]): Promise<string | null> {
  if (!hasJsonBody(c)) return null;
  const body = await parseJsonBody(c);
  const url = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>)['url'] : undefined;
  return typeof url === 'string' ? new URL(url).hostname : null;
}

/** POST /v1/check-source-overlap (spec, Document checkers; Source-overlap result; Limits: only `assessed` counts). */
export function checkSourceOverlapRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(OVERLAP_TOOL, {
    summary: 'A 1,280-word report with two passages found word for word on two public pages: 4% of its words, band low.',
    reply: () => overlapSandboxReply(),
  });
  app.openapi(route(deps), async (c) => {
    const query = c.req.valid('query');
    const intake = await readDocuments(c, rules(deps));
    const excludedHost = await documentHost(c);
    return answerWithServices<OverlapResult>(c, deps, {
      documents: intake.documents,
      read: {},
      now: deps.now(),
      stream: query.stream,
      async judge(read, services, context) {
        const text = read.documents[0]!.pages.map((page) => page.text).join('\n\n');
        const reply = await judgeOverlap(text, services, { excludedHost }, context);
        return { reply, counts: reply.outcome === 'assessed' };
      },
    });
  });
  return app;
}
