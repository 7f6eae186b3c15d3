import { z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { answer } from '../_runner/answer.ts';
import { cachedAnalysis } from '../_runner/cached-analysis.ts';
import { freshArgument, freshSwitch, jsonDocument, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import { firstPageStore } from '../first-page-cache.ts';
import { identityResult } from './result.ts';
import { identitySandboxReply } from './sandbox.ts';

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

/**
 * POST /v1/identity-check (spec, Document checkers; Other checker rules): up to 10 documents, `scheme` in the
 * query or the body.
 */
export default defineChecker({
  name: 'identity',
  tool: IDENTITY_TOOL,
  path: '/v1/identity-check',
  lane: { kind: 'pool', analysis: { moduleUrl: new URL('./analyse.ts', import.meta.url).href, exportName: 'analyseIdentity' } },
  intake: { subject: 'identity checks', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'], maxDocuments: MAX_IDENTITY_DOCUMENTS, url: 'fetch' },
  route: {
    summary: 'Check a set of identity documents against an Australian identity scheme',
    description:
      'Classifies each document (passport, driver licence, Medicare card, utility bill, …), says what it shows (N name, P photo, ' +
      'A address, S signature) and how it counts under the scheme: AFP 100-point (points and primaries) or AUSTRAC safe harbour ' +
      `(a category path). Up to ${MAX_IDENTITY_DOCUMENTS} documents (PDF or images). Coverage for a person to act on, never a verdict. ` +
      'Identical documents with the same scheme are answered from the stored result, free. One unit of the weekly allowance per call.',
    query: IdentityCheckQuery,
    body: { required: false, json: IdentityCheckBody, form: IdentityCheckForm },
    reply: { schema: identityResult, description: 'The identity-check result.' },
  },
  mcp: {
    title: 'Check identity documents against an Australian scheme',
    description:
      'Up to 10 identity documents (PDF or images, each `{bytes_b64, filename}` or `{url}`) counted under `scheme` ' +
      '`afp_100_point` (default: points and primaries) or `austrac_safe_harbour` (a category path). Each document is classified ' +
      '(passport, driver licence, Medicare card, utility bill, …) with what it shows (N name, P photo, A address, S signature) ' +
      'and how it counts; `established` says whether the set meets the scheme. Coverage for a person to act on: no document is ' +
      'authenticated. Uses one unit of the weekly allowance per call.',
    input: IdentityCheckBody.extend({ fresh: freshArgument }),
    output: identityResult,
    request: 'document',
  },
  sandbox: {
    summary: 'A passport, a driver licence and a utility bill counted under the AFP 100-point check: 150 points, established.',
    reply: () => identitySandboxReply(),
  },
  handler: (deps) => async ({ c, query, documents }) => {
    const intake = await documents();
    const fromBody = schemeFrom(intake.fields['scheme']);
    if (query.scheme !== undefined && fromBody !== undefined && query.scheme !== fromBody) {
      return c.json({ detail: `The query asks for scheme ${query.scheme} and the body for ${fromBody}; give the scheme once.` }, 400);
    }
    return answer(c, deps, await cachedAnalysis(deps.cache, {
      checker: IDENTITY_TOOL,
      documents: intake.documents,
      namesShown: true,
      options: { scheme: query.scheme ?? fromBody ?? 'afp_100_point' },
      engineVersion: packageJson.version,
      fresh: query.fresh,
      stream: query.stream,
      now: deps.now(),
      firstPages: firstPageStore(deps.cache),
    }));
  },
});

function schemeFrom(value: unknown): (typeof IDENTITY_SCHEMES)[number] | undefined {
  const parsed = scheme.optional().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
