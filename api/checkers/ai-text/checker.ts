import { z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { sha256Hex } from '../../../lib/hash.ts';
import { answer } from '../_runner/answer.ts';
import { cacheKey } from '../_runner/content-cache.ts';
import { documentBytes, documentFilename, documentUrl, freshSwitch, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import { AI_TEXT_READING, judgeAiText } from './analyse.ts';
import { MIN_WORDS } from './applicability.ts';
import { aiTextEstimate } from './result.ts';
import { aiTextSandboxReply } from './sandbox.ts';
import { AI_TEXT_MODEL } from './shipped-model.ts';

/** The sandbox registry's name for this tool and its MCP tool's name. */
export const AI_TEXT_TOOL = 'detect_ai_text';

export const DetectAiTextQuery = strictQuery({ stream: streamSwitch, fresh: freshSwitch });

/** The estimate's engine: the code's release and the fitted model, so a refitted model never answers with an old estimate. */
const AI_TEXT_ENGINE = `${packageJson.version}:${sha256Hex(JSON.stringify(AI_TEXT_MODEL)).slice(0, 16)}`;

export const DetectAiTextBody = z
  .strictObject({
    text: z.string().optional().openapi({ description: 'The prose itself, as plain text (instead of a document).' }),
    bytes_b64: documentBytes.optional(),
    filename: documentFilename.optional(),
    url: documentUrl.optional(),
    sandbox: sandboxField,
  })
  .openapi('DetectAiTextRequest', { description: 'One of `text`, `bytes_b64` (with `filename`) or `url`: a PDF, plain text or HTML.' });

const DetectAiTextForm = z.object({ file: uploadedFile.openapi({ description: 'A PDF, plain-text or HTML file.' }) });

/** POST /v1/detect-ai-text (spec, Document checkers; AI-text estimate). */
export default defineChecker({
  name: 'ai-text',
  tool: AI_TEXT_TOOL,
  path: '/v1/detect-ai-text',
  lane: { kind: 'judge', stored: true },
  intake: { subject: 'AI-text estimates', accepts: ['pdf', 'text', 'html'], maxDocuments: 1, url: 'fetch', textField: true },
  route: {
    summary: 'Estimate whether prose was written by an AI model',
    description:
      'Weights-free stylometry (sentence-length burstiness, function words, vocabulary variety, punctuation, stock phrases with a ' +
      'published basis) and a frequent-word profile, combined by a logistic regression fitted on labelled English passages. Abstains (`applicable: false`, ' +
      'with the reason) on forms, tables, lists, code, scans, non-English text and texts under 150 words. An estimate for a person ' +
      `to weigh, never a verdict: measured on held-out passages at AUROC ${AI_TEXT_MODEL.test.auroc}, and at the likely_ai threshold ` +
      `it flagged ${Math.round(AI_TEXT_MODEL.test.false_positive_rate_human * 1000) / 10}% of human passages. One unit of the weekly ` +
      'allowance per answer; abstentions are not counted. The same text again is answered from the stored estimate, free and at once ' +
      '(`Svc-Cache: hit`); `fresh=1` estimates again.',
    query: DetectAiTextQuery,
    body: { required: false, json: DetectAiTextBody, form: DetectAiTextForm },
    reply: { schema: aiTextEstimate, description: 'The AI-text estimate, or an abstention.' },
  },
  mcp: {
    title: 'Estimate whether prose was written by AI',
    description:
      'An estimate of whether English prose was written by an AI model: give `text`, or a PDF, text or HTML document ' +
      '(`bytes_b64` with `filename`, or `url`). Returns `probability`, `lean` (ai, likely_ai, uncertain, likely_human, human), ' +
      '`tells` (each with its published basis and the passage that shows it) and `reasoning`. Abstains (`applicable: false`, ' +
      'with the reason) on forms, tables, lists, code, scans, non-English text and texts under 150 words. Never a verdict: ' +
      '`limitations` quotes the measured AUROC and false-positive rate. Uses one unit of the weekly allowance per answer; ' +
      'abstentions are not counted.',
    input: DetectAiTextBody,
    output: aiTextEstimate,
    request: 'document',
  },
  sandbox: {
    summary: 'A product announcement estimated likely AI-written, with its stock-phrase and negative-parallelism tells.',
    reply: () => aiTextSandboxReply(),
  },
  agentNote:
    '`POST /v1/detect-ai-text` (tool `detect_ai_text`) also takes `{"text": "…"}`: it estimates whether English prose was written by AI from ' +
    'stylometry (`probability`, `lean` ai / likely_ai / uncertain / likely_human / human, `tells` quoting their passages), abstains ' +
    `(\`applicable: false\` with \`abstention_reason\`) on forms, tables, lists, code, scans, non-English text and texts under ${MIN_WORDS} words, ` +
    'counts only when it answers; the same text again is answered from the stored estimate, free (`fresh=1` estimates again). Its `limitations` quote the AUROC and false-positive rate it was measured at.',
  handler: (deps) => async ({ c, query, documents }) => {
    const intake = await documents();
    // The estimate asks no outside service: the same text gets the same estimate, so it is kept and answered free.
    const key = cacheKey({ checker: AI_TEXT_TOOL, documents: intake.documents.map((document) => ({ sha256: document.sha256 })), options: AI_TEXT_READING, engineVersion: AI_TEXT_ENGINE });
    return answer(c, deps, {
      documents: intake.documents,
      now: deps.now(),
      stream: query.stream,
      stored: query.fresh ? undefined : (await deps.cache.get(key) as object | undefined),
      lane: { kind: 'judge', read: AI_TEXT_READING, judge: async (reading) => judgeAiText(reading, AI_TEXT_MODEL), keep: { cache: deps.cache, key } },
    });
  },
});
