import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { identityResult } from '../checkers/identity/result.ts';
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
import { identitySandboxReply } from './checker-sandbox.ts';

/** The sandbox registry's name for this tool, the pool's name of its analysis, and its MCP tool's name. */
export const IDENTITY_TOOL = 'identity_check';
export const MAX_IDENTITY_DOCUMENTS = 10;
export const IDENTITY_SCHEMES = ['afp_100_point', 'austrac_safe_harbour'] as const;

const scheme = z.enum(IDENTITY_SCHEMES, { error: `must be one of ${IDENTITY_SCHEMES.join(', ')}` });

export const IdentityCheckQuery = strictQuery({
  scheme: scheme.optional().openapi({ description: 'The identity scheme: `afp_100_point` (default) or `austrac_safe_harbour`; the body may give it instead.' }),
  stream: streamSwitch,
  fresh: freshSwitch,
});

export const IdentityCheckBody = z
  .strictObject({
    documents: z.array(jsonDocument).openapi({ maxItems: MAX_IDENTITY_DOCUMENTS, description: `Up to ${MAX_IDENTITY_DOCUMENTS} documents, each \`{bytes_b64, filename}\` or \`{url}\`.` }),
    scheme: scheme.optional(),
    sandbox: sandboxField,
  })
  .openapi('IdentityCheckRequest');

const IdentityCheckForm = z.object({
  files: z.union([uploadedFile, z.array(uploadedFile)]).optional().openapi({ description: `Up to ${MAX_IDENTITY_DOCUMENTS} files, one part each.` }),
  scheme: scheme.optional(),
});

const route = (deps: CheckerDeps) => createRoute({
  method: 'post',
  path: '/v1/identity-check',
  tags: ['Document checkers'],
  summary: 'Check a set of identity documents against an Australian identity scheme',
  description:
    'Classifies each document (passport, driver licence, Medicare card, utility bill, …), says what it shows (N name, P photo, ' +
    'A address, S signature) and how it counts under the scheme: AFP 100-point (points and primaries) or AUSTRAC safe harbour ' +
    `(a category path). Up to ${MAX_IDENTITY_DOCUMENTS} documents (PDF or images). Coverage for a person to act on, never a verdict. ` +
    'Identical documents with the same scheme are answered from the stored result, free. One unit of the weekly allowance per call.',
  middleware: [deps.sandbox.middleware(IDENTITY_TOOL), metered({ meter: deps.meter, countIf: countsAgainstAllowance, storedResultsFree: true })] as const,
  request: {
    query: IdentityCheckQuery,
    body: { required: false, content: { 'application/json': { schema: IdentityCheckBody }, 'multipart/form-data': { schema: IdentityCheckForm } } },
  },
  responses: { 200: checkerReply(identityResult, 'The identity-check result.'), ...checkerErrors },
});

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'identity checks',
  accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'],
  maxDocuments: MAX_IDENTITY_DOCUMENTS,
  url: { fetch: deps.fetchDocument },
});

/**
 * POST /v1/identity-check (spec, Document checkers; Other checker rules): up to 10 documents, `scheme` in the
 * query or the body.
 */
export function identityCheckRoutes(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(IDENTITY_TOOL, {
    summary: 'A passport, a driver licence and a utility bill counted under the AFP 100-point check: 150 points, established.',
    reply: () => identitySandboxReply(),
  });
  app.openapi(route(deps), async (c) => {
    const query = c.req.valid('query');
    const intake = await readDocuments(c, rules(deps));
    const fromBody = schemeFrom(intake.fields['scheme']);
    if (query.scheme !== undefined && fromBody !== undefined && query.scheme !== fromBody) {
      return c.json({ detail: `The query asks for scheme ${query.scheme} and the body for ${fromBody}; give the scheme once.` }, 400);
    }
    return answerCached(c, deps, {
      checker: IDENTITY_TOOL,
      documents: intake.documents,
      namesShown: true,
      options: { scheme: query.scheme ?? fromBody ?? 'afp_100_point' },
      engineVersion: packageJson.version,
      fresh: query.fresh,
      stream: query.stream,
      now: deps.now(),
      firstPages: firstPageStore(deps.cache),
    });
  });
  return app;
}

function schemeFrom(value: unknown): (typeof IDENTITY_SCHEMES)[number] | undefined {
  const parsed = scheme.optional().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
