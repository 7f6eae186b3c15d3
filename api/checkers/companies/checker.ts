import { z } from '@hono/zod-openapi';
import { JURISDICTIONS } from '../../../lib/jurisdictions.ts';
import type { LoadedRelease } from '../../release-store.ts';
import { sandboxField } from '../../schemas/common.ts';
import { errorReply } from '../../schemas/openapi-content.ts';
import { defineChecker } from '../define-checker.ts';
import { resolveCompany } from './analyse.ts';
import { parseQuery } from './identifiers.ts';
import { normaliseName } from './names.ts';
import { releaseRegisters, type CompanyRegisters } from './registers.ts';
import { companyResolution } from './result.ts';
import { companySandboxReply } from './sandbox.ts';

/** The sandbox registry's name for this tool, and its MCP tool's name. */
export const RESOLVE_COMPANY_TOOL = 'resolve_company';

export const CompanyResolveBody = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1, 'is empty: send a company name, an ABN, an ACN or an NZBN')
      .max(200, 'is longer than 200 characters: send one company name or number')
      .refine((query) => parseQuery(query).kind !== 'name' || normaliseName(query).core.length > 0, {
        message: 'has no word that names a company (only legal forms such as Pty Ltd, or punctuation): send the name or a number',
      })
      .openapi({ description: 'A company name, or an ABN, ACN (or ARBN) or NZBN, spaced or hyphenated as printed, optionally labelled (`ABN 51 824 753 556`).', example: 'ABN 53 004 085 616' }),
    jurisdiction: z
      .enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` })
      .optional()
      .openapi({ description: 'Where the company is registered: `AU` (default; a state code means the same, as both registers are national) or `NZ`.' }),
    sandbox: sandboxField,
  })
  .openapi('CompanyResolveRequest');

/** An answer counts unless it is `inconclusive` (an unread register, an NZ identifier, a typo): those are not findings. */
async function resolutionCounts(response: Response): Promise<boolean> {
  if (!response.ok) return false;
  const body = (await response.clone().json()) as { status?: string };
  return body.status !== 'inconclusive';
}

/**
 * POST /v1/companies/resolve (spec, Document checkers; Other checker rules). Needs no document and no
 * analysis process: the registers are read from the loaded release's store, ABN Lookup through `services`.
 * Without a loaded release the registers cannot be read, and the answer says so (`inconclusive`).
 */
export default defineChecker({
  name: 'companies',
  tool: RESOLVE_COMPANY_TOOL,
  path: '/v1/companies/resolve',
  lane: { kind: 'direct', countIf: resolutionCounts },
  route: {
    summary: 'Resolve a company by name, ABN, ACN or NZBN to its register entries and ASIC standing',
    description:
      'An ABN or ACN resolves directly from the ABN bulk extract and ASIC\'s company dataset as this release holds them (and ABN Lookup ' +
      'live when the server is configured for it), with the ABN\'s status and the company\'s ASIC standing. A number failing its check ' +
      'digit is reported as a typo with the valid numbers it may have been meant as (two adjacent digits swapped back first, then one ' +
      'digit changed; each passes the check digit), and is not searched as a name. A name only produces candidates ' +
      'ordered by match quality (`ambiguous`, `selected: null`). New Zealand identifiers answer `inconclusive`; so does any answer for ' +
      'which a register could not be read; `not_found` means every register answered. Officeholders and directors are not included. ' +
      'One unit of the weekly allowance per call, except `inconclusive` answers, which are not counted.',
    body: { required: true, json: CompanyResolveBody },
    reply: { schema: companyResolution, description: 'The company resolution result.' },
    errors: {
      415: errorReply('The body is not JSON.'),
      422: errorReply('The body does not match the schema (an empty query, an unknown jurisdiction); `detail` names the field.'),
      429: errorReply('The weekly allowance is used up; `Retry-After` says when it comes back.'),
      503: errorReply('The usage meter is unreachable; `Retry-After` says when to try again.'),
    },
    mediaType: 'json',
  },
  mcp: {
    title: 'Resolve an Australian company by name, ABN or ACN',
    description:
      'Look a company up in the ABN and ASIC registers: `query` is a name, or an ABN, ACN or NZBN as printed. An ABN or ACN resolves ' +
      "directly (`selected`: identifiers, legal name, ABN status, and the `asic` block with status code, its meaning, good standing, " +
      'registration date, former names and how old the weekly copy is). A number failing its check digit is a typo: `identifier.nearest_valid` ' +
      'lists the valid numbers it may have been meant as, two adjacent digits swapped back first, then one digit changed. A name only gives `candidates` ordered by match quality, never a selection. `coverage` says ' +
      'which registers answered; `inconclusive` means one could not be read (or an NZ identifier). No directors or officeholders. ' +
      'Uses one unit of the weekly allowance per call, except inconclusive answers.',
    input: CompanyResolveBody,
    output: companyResolution,
  },
  sandbox: {
    summary: 'ABN 53 004 085 616 resolved to an invented private company, registered with ASIC and in good standing.',
    reply: () => companySandboxReply(),
  },
  agentNote:
    'Company resolution takes JSON `{"query": "…"}` (a name, or an ABN, ACN or NZBN as printed; `jurisdiction` optional) and no document: ' +
    'a valid ABN or ACN resolves from the ABN and ASIC registers, a number failing its check digit comes back as a typo with the valid ' +
    'numbers it may have been meant as (two adjacent digits swapped back first, then one digit changed), and a name only gives candidates (`ambiguous`). `coverage` names each register and whether it answered; ' +
    '`inconclusive` (a register unread, or a New Zealand identifier) is not counted.',
  handler(deps) {
    // One reader per release, so each register's state is read once per release rather than once per call.
    const readers = new WeakMap<LoadedRelease, CompanyRegisters>();
    return async ({ c, json }) => {
      const body = json!;
      const state = deps.store.state();
      let registers: CompanyRegisters | { unavailable: string };
      if (state.ready) {
        registers = readers.get(state.release) ?? releaseRegisters(state.release);
        readers.set(state.release, registers as CompanyRegisters);
      } else {
        registers = { unavailable: state.detail };
      }
      const jurisdiction = body.jurisdiction === undefined ? undefined : body.jurisdiction === 'NZ' ? 'NZ' as const : 'AU' as const;
      const result = await resolveCompany({ query: body.query, jurisdiction }, { registers, abnLookup: deps.services.abnLookup, now: deps.store.now() });
      return c.json(result, 200);
    };
  },
});
