import { z } from '@hono/zod-openapi';
import packageJson from '../../../package.json' with { type: 'json' };
import { answer } from '../_runner/answer.ts';
import { cachedAnalysis } from '../_runner/cached-analysis.ts';
import { freshArgument, freshSwitch, jsonDocument, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import { documentTypeNames } from '../document-types.ts';
import { firstPageStore } from '../first-page-cache.ts';
import { packOptions, packRequirement, packSchemeIds } from './options.ts';
import { packResult } from './result.ts';
import { packSandboxReply } from './sandbox.ts';

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

/** POST /v1/check-pack (spec, Document checkers; Other checker rules): up to 12 documents, a scheme or requirements. */
export default defineChecker({
  name: 'pack',
  tool: PACK_TOOL,
  path: '/v1/check-pack',
  lane: { kind: 'pool', analysis: { moduleUrl: new URL('./analyse.ts', import.meta.url).href, exportName: 'analysePack' } },
  intake: { subject: 'pack checks', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff', 'docx', 'text', 'html'], maxDocuments: MAX_PACK_DOCUMENTS, url: 'fetch' },
  route: {
    summary: 'Check a pack of documents against a checklist',
    description:
      'Classifies each document from one read of its first page and fills the checklist\'s slots: a built-in `scheme` ' +
      `(${PACK_SCHEMES.join(', ')}) or your own \`requirements\`. Says which slots are filled, what is missing, which documents ` +
      `matched nothing, and flags a document a scheme should not collect where a published rule says so. Up to ${MAX_PACK_DOCUMENTS} ` +
      'documents (PDF, images, .docx or text). No field extraction; never a verdict. One unit of the weekly allowance per call.',
    query: CheckPackQuery,
    body: { required: false, json: CheckPackBody, form: CheckPackForm },
    reply: { schema: packResult, description: 'The document-pack result.' },
  },
  mcp: {
    title: 'Check a document pack against a checklist',
    description:
      'Up to 12 documents (each `{bytes_b64, filename}` or `{url}`) classified from their first page and matched to the slots of ' +
      'a `scheme` (income_proof, lending_prequal, rental_application) or your own `requirements` (document types, or {key, ' +
      'accepts[], optional}): which slots are filled, what is `missing`, documents that matched nothing, and documents a scheme ' +
      'should not collect where a published rule says so. Uses one unit of the weekly allowance per call.',
    input: CheckPackBody.extend({ fresh: freshArgument }),
    output: packResult,
    request: 'document',
  },
  sandbox: {
    summary: 'A rental application pack with photo ID and a payslip but no rental history: incomplete, one slot missing.',
    reply: () => packSandboxReply(),
  },
  handler: (deps) => async ({ c, query, documents }) => {
    const intake = await documents();
    const requirements = query.requirements === undefined ? intake.fields['requirements'] : [query.requirements].flat();
    const options = packOptions.safeParse({ scheme: query.scheme ?? intake.fields['scheme'], requirements });
    if (!options.success) {
      return c.json({ detail: `${describeIssue(options.error.issues[0]!)} Schemes: ${PACK_SCHEMES.join(', ')}; requirements are document types or {key, accepts[], optional} slots.` }, 400);
    }
    return answer(c, deps, await cachedAnalysis(deps.cache, {
      checker: PACK_TOOL,
      documents: intake.documents,
      namesShown: true,
      options: options.data,
      engineVersion: packageJson.version,
      fresh: query.fresh,
      stream: query.stream,
      now: deps.now(),
      firstPages: firstPageStore(deps.cache),
    }));
  },
});

/** An option issue as a sentence naming its field; a union's issue is told by its first alternative (a type name). */
function describeIssue(issue: z.core.$ZodIssue): string {
  const inner = issue.code === 'invalid_union' ? issue.errors[0]?.[0] : undefined;
  const path = [...issue.path, ...(inner?.path ?? [])].map(String).join('.');
  const message = (inner ?? issue).message.replace(/\.?$/, '.');
  return path === '' ? message : `${path}: ${message}`;
}
