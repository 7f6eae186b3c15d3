import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { sha256Hex } from '../../lib/hash.ts';
import { judgeAiText, AI_TEXT_READING } from '../checkers/ai-text/analyse.ts';
import { aiTextEstimate } from '../checkers/ai-text/result.ts';
import { AI_TEXT_MODEL } from '../checkers/ai-text/shipped-model.ts';
import { answerWithServices, judgedReplyCounts } from '../documents/answer-services.ts';
import { cacheKey } from '../documents/content-cache.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, freshSwitch, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../schemas/common.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { aiTextSandboxReply } from './checker-sandbox.ts';

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

const route = (deps: CheckerDeps) => createRoute({
  method: 'post',
  path: '/v1/detect-ai-text',
  tags: ['Document checkers'],
  summary: 'Estimate whether prose was written by an AI model',
  description:
    'Weights-free stylometry (sentence-length burstiness, function words, vocabulary variety, punctuation, stock phrases with a ' +
    'published basis) and a frequent-word profile, combined by a logistic regression fitted on labelled English passages. Abstains (`applicable: false`, ' +
    'with the reason) on forms, tables, lists, code, scans, non-English text and texts under 150 words. An estimate for a person ' +
    `to weigh, never a verdict: measured on held-out passages at AUROC ${AI_TEXT_MODEL.test.auroc}, and at the likely_ai threshold ` +
    `it flagged ${Math.round(AI_TEXT_MODEL.test.false_positive_rate_human * 1000) / 10}% of human passages. One unit of the weekly ` +
    'allowance per answer; abstentions are not counted. The same text again is answered from the stored estimate, free and at once ' +
    '(`Svc-Cache: hit`); `fresh=1` estimates again.',
  middleware: [deps.sandbox.middleware(AI_TEXT_TOOL), metered({ meter: deps.meter, countIf: judgedReplyCounts, storedResultsFree: true })] as const,
  request: {
    query: DetectAiTextQuery,
    body: { required: false, content: { 'application/json': { schema: DetectAiTextBody }, 'multipart/form-data': { schema: DetectAiTextForm } } },
  },
  responses: { 200: checkerReply(aiTextEstimate, 'The AI-text estimate, or an abstention.'), ...checkerErrors },
});

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'AI-text estimates',
  accepts: ['pdf', 'text', 'html'],
  maxDocuments: 1,
  url: { fetch: deps.fetchDocument },
  textField: true,
});

/** POST /v1/detect-ai-text (spec, Document checkers; AI-text estimate). */
export function detectAiTextRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(AI_TEXT_TOOL, {
    summary: 'A product announcement estimated likely AI-written, with its stock-phrase and negative-parallelism tells.',
    reply: () => aiTextSandboxReply(),
  });
  app.openapi(route(deps), async (c) => {
    const query = c.req.valid('query');
    const intake = await readDocuments(c, rules(deps));
    return answerWithServices(c, deps, {
      documents: intake.documents,
      read: AI_TEXT_READING,
      now: deps.now(),
      stream: query.stream,
      judge: async (reading) => judgeAiText(reading, AI_TEXT_MODEL),
      // The estimate asks no outside service: the same text gets the same estimate, so it is kept and answered free.
      stored: {
        cache: deps.cache,
        key: cacheKey({ checker: AI_TEXT_TOOL, documents: intake.documents.map((document) => ({ sha256: document.sha256 })), options: AI_TEXT_READING, engineVersion: AI_TEXT_ENGINE }),
        fresh: query.fresh,
      },
    });
  });
  return app;
}
