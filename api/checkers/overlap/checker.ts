import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { answer } from '../_runner/answer.ts';
import { documentBytes, documentFilename, documentUrl, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { hasJsonBody, parseJsonBody, sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import { judgeOverlap } from './analyse.ts';
import { overlapResult, type OverlapResult } from './result.ts';
import { overlapSandboxReply } from './sandbox.ts';

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

/** The host of a JSON body's `url` document: its pages are the document's own, not sources of it. */
async function documentHost(c: Context): Promise<string | null> {
  if (!hasJsonBody(c)) return null;
  const body = await parseJsonBody(c);
  const url = body.kind === 'json' && typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>)['url'] : undefined;
  return typeof url === 'string' ? new URL(url).hostname : null;
}

/** POST /v1/check-source-overlap (spec, Document checkers; Source-overlap result; Limits: only `assessed` counts). */
export default defineChecker({
  name: 'overlap',
  tool: OVERLAP_TOOL,
  path: '/v1/check-source-overlap',
  lane: { kind: 'judge', stored: false },
  intake: { subject: 'source-overlap checks', accepts: ['pdf', 'text', 'html', 'docx'], maxDocuments: 1, url: 'fetch', textField: true },
  route: {
    summary: 'Find passages of a document published word for word on the public web',
    description:
      "Fingerprints the document's text (winnowed word 5-grams), searches the web for its most distinctive passages, reads the " +
      'pages found (never those on the `url` input\'s own host) and reports every passage of at least 10 words that a page holds ' +
      'word for word, with its span in the document (offsets into the text as read, pages joined by a blank line) and in the ' +
      'page. `overlap_ratio` is the share of words inside a match, `overlap_band` its band. Paraphrase is not checked. The ' +
      'check abstains on short texts and non-prose (tables, forms, code, other languages), and says so when no search ' +
      'provider is configured or answering. PDF, text, HTML or .docx. Only an `assessed` outcome uses one unit of the weekly allowance.',
    query: SourceOverlapQuery,
    body: { required: false, json: SourceOverlapBody, form: SourceOverlapForm },
    reply: { schema: overlapResult, description: 'The source-overlap result.' },
  },
  mcp: {
    title: 'Find passages of a document published word for word on the web',
    description:
      'One document (`text`, `{bytes_b64, filename}` of a PDF, text, HTML or .docx, or `url`): its most distinctive passages are ' +
      'searched on the web, the pages found are read (never those on the `url`\'s own host), and every passage of 10 or more words a ' +
      'page holds word for word is returned with its span in the document and in the page, `overlap_ratio`, `overlap_band` and ' +
      '`top_sources`. Paraphrase is not checked. `outcome` says when the check abstained (short or non-prose text) or could not ' +
      'search (no provider configured or answering); only `assessed` uses one unit of the weekly allowance.',
    input: SourceOverlapBody,
    output: overlapResult,
    request: 'document',
  },
  sandbox: {
    summary: 'A 1,280-word report with two passages found word for word on two public pages: 4% of its words, band low.',
    reply: () => overlapSandboxReply(),
  },
  agentNote:
    '`check_source_overlap` (`POST /v1/check-source-overlap`) also takes `{"text": "…"}`; it searches the web for the document\'s most ' +
    'distinctive passages and returns each passage of 10 or more words a page holds word for word, with spans on both sides ' +
    '(paraphrase is not checked). Only `outcome: assessed` is counted: an abstention (`abstained_too_short`, `abstained_not_prose`) or ' +
    'an outage (`search_unavailable` when no search provider is configured or answering, `sources_unreachable`) is free.',
  handler: (deps) => async ({ c, query, documents }) => {
    const intake = await documents();
    const excludedHost = await documentHost(c);
    return answer<OverlapResult>(c, deps, {
      documents: intake.documents,
      now: deps.now(),
      stream: query.stream,
      stored: undefined,
      lane: {
        kind: 'judge',
        read: {},
        async judge(read, services, context) {
          const text = read.documents[0]!.pages.map((page) => page.text).join('\n\n');
          const reply = await judgeOverlap(text, services, { excludedHost }, context);
          return { reply, counts: reply.outcome === 'assessed' };
        },
      },
    });
  },
});
