import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { documentTypeNames } from '../checkers/document-types.ts';
import { packOptions, packRequirement, packSchemeIds } from '../checkers/pack/options.ts';
import { packResult } from '../checkers/pack/result.ts';
import { firstPageStore } from '../checkers/first-page-cache.ts';
import { answerCached, countsAgainstAllowance } from '../documents/answer.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import { checkerErrors, checkerReply, freshSwitch, jsonDocument, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../schemas/common.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { packSandboxReply } from './checker-sandbox.ts';

/** The sandbox registry's name for this tool, the pool's name of its analysis, and its MCP tool's name. */
export const PACK_TOOL = 'check_pack';
export const MAX_PACK_DOCUMENTS = 12;
export const PACK_SCHEMES = packSchemeIds as [string, ...string[]];

const scheme = z.enum(PACK_SCHEMES, { error: `must be one of ${PACK_SCHEMES.join(', ')}` });
const typeName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, { error: 'must be a document type name such as payslip or bank_statement' });
const requirement = packRequirement.openapi('PackRequirement', { description: `A document type name (${documentTypeNames.join(', ')}), or a slot \`{key, accepts[], optional}\`.` });

export const CheckPackQuery = strictQuery({
  scheme: scheme.optional().openapi({ description: 'A built-in checklist; or give `requirements` instead.' }),
  requirements: z.union([typeName, z.array(typeName)]).optional()
    .openapi({ description: 'Repeat for each required document type (`requirements=payslip&requirements=bank_statement`).' }),
  stream: streamSwitch,
  fresh: freshSwitch,
});

export const CheckPackBody = z
  .strictObject({
    documents: z.array(jsonDocument).openapi({ maxItems: MAX_PACK_DOCUMENTS, description: `Up to ${MAX_PACK_DOCUMENTS} documents, each \`{bytes_b64, filename}\` or \`{url}\`.` }),
    scheme: scheme.optional(),
    requirements: z.array(requirement).min(1).optional(),
    sandbox: sandboxField,
  })
  .openapi('CheckPackRequest');

const CheckPackForm = z.object({
  files: z.union([uploadedFile, z.array(uploadedFile)]).optional().openapi({ description: `Up to ${MAX_PACK_DOCUMENTS} files, one part each.` }),
  scheme: scheme.optional(),
});

const route = (deps: CheckerDeps) => createRoute({
  method: 'post',
  path: '/v1/check-pack',
  tags: ['Document checkers'],
  summary: 'Check a pack of documents against a checklist',
  description:
    'Classifies each document from one read of its first page and fills the checklist\'s slots: a built-in `scheme` ' +
    `(${PACK_SCHEMES.join(', ')}) or your own \`requirements\`. Says which slots are filled, what is missing, which documents ` +
    `matched nothing, and flags a document a scheme should not collect where a published rule says so. Up to ${MAX_PACK_DOCUMENTS} ` +
    'documents (PDF, images, .docx or text). No field extraction; never a verdict. One unit of the weekly allowance per call.',
  middleware: [deps.sandbox.middleware(PACK_TOOL), metered({ meter: deps.meter, countIf: countsAgainstAllowance, storedResultsFree: true })] as const,
  request: {
    query: CheckPackQuery,
    body: { required: false, content: { 'application/json': { schema: CheckPackBody }, 'multipart/form-data': { schema: CheckPackForm } } },
  },
  responses: { 200: checkerReply(packResult, 'The document-pack result.'), ...checkerErrors },
});

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'pack checks',
  accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff', 'docx', 'text', 'html'],
  maxDocuments: MAX_PACK_DOCUMENTS,
  url: { fetch: deps.fetchDocument },
});

/** POST /v1/check-pack (spec, Document checkers; Other checker rules): up to 12 documents, a scheme or requirements. */
export function checkPackRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(PACK_TOOL, {
    summary: 'A rental application pack with photo ID and a payslip but no rental history: incomplete, one slot missing.',
    reply: () => packSandboxReply(),
  });
  app.openapi(route(deps), async (c) => {
    const query = c.req.valid('query');
    const intake = await readDocuments(c, rules(deps));
    const requirements = query.requirements === undefined ? intake.fields['requirements'] : [query.requirements].flat();
    const options = packOptions.safeParse({ scheme: query.scheme ?? intake.fields['scheme'], requirements });
    if (!options.success) {
      return c.json({ detail: `${describeIssue(options.error.issues[0]!)} Schemes: ${PACK_SCHEMES.join(', ')}; requirements are document types or {key, accepts[], optional} slots.` }, 400);
    }
    return answerCached(c, deps, {
      checker: PACK_TOOL,
      documents: intake.documents,
      namesShown: true,
      options: options.data,
      engineVersion: packageJson.version,
      fresh: query.fresh,
      stream: query.stream,
      now: deps.now(),
      firstPages: firstPageStore(deps.cache),
    });
  });
  return app;
}

/** An option issue as a sentence naming its field; a union's issue is told by its first alternative (a type name). */
function describeIssue(issue: z.core.$ZodIssue): string {
  const inner = issue.code === 'invalid_union' ? issue.errors[0]?.[0] : undefined;
  const path = [...issue.path, ...(inner?.path ?? [])].map(String).join('.');
  const message = (inner ?? issue).message.replace(/\.?$/, '.');
  return path === '' ? message : `${path}: ${message}`;
}
