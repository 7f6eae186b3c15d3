import { z } from '@hono/zod-openapi';
import { answer } from '../_runner/answer.ts';
import type { ReleaseStore } from '../../release-store.ts';
import { documentBytes, documentFilename, documentUrl, streamSwitch, uploadedFile } from '../../schemas/checkers.ts';
import { hasJsonBody, sandboxField, strictQuery } from '../../schemas/common.ts';
import { defineChecker } from '../define-checker.ts';
import { sanctionsIndexOf } from '../screening/sanctions.ts';
import { screenSubject, type SanctionsLookup } from './analyse.ts';
import { adverseMediaResult } from './result.ts';
import { adverseMediaSandboxReply } from './sandbox.ts';
import { countryCode, naturalOrder, subjectFromText, type Subject } from './subject.ts';

/** The sandbox registry's name for this tool, and its MCP tool's name. */
export const ADVERSE_MEDIA_TOOL = 'adverse_media';

const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });
const country = text(60).refine((value) => countryCode(value) !== null, { error: 'must be an ISO 3166 country code (AU) or an English country name (Australia)' });
const dob = z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, { error: 'must be YYYY, YYYY-MM or YYYY-MM-DD' });

/** The subject's details a caller may give, beside a name or a document. */
const subjectFields = {
  dob: dob.optional().openapi({ description: 'Date of birth (`YYYY-MM-DD`, or `YYYY-MM`, `YYYY`): a sanctions qualifier, and the age an article\'s namesake is compared with.' }),
  country: country.optional().openapi({ description: 'Country of residence or nationality, ISO code or English name: a sanctions qualifier and the place articles are compared with.' }),
  aliases: z.array(text(200)).max(10).optional().openapi({ description: 'Other names, up to 10; each is screened and searched too.' }),
  employer: text(200).optional().openapi({ description: 'The subject\'s employer: an article naming it agrees; one tying the namesake elsewhere is set aside.' }),
  role: text(200).optional().openapi({ description: 'The subject\'s occupation or role (e.g. Managing Director): an article describing another occupation is set aside.' }),
};

export const AdverseMediaBody = z
  .strictObject({
    // A name of marks or digits alone folds to nothing and would screen nobody.
    name: text(200).refine((value) => /\p{L}/u.test(value), { error: 'must hold at least one letter' }).optional().openapi({ description: 'The subject\'s name; or send an identity document instead.' }),
    ...subjectFields,
    bytes_b64: documentBytes.optional(),
    filename: documentFilename.optional(),
    url: documentUrl.optional(),
    sandbox: sandboxField,
  })
  .openapi('AdverseMediaRequest');

const AdverseMediaForm = z.object({
  file: uploadedFile.optional().openapi({ description: 'An identity document (passport, driver licence) to read the subject from: PDF or image.' }),
  dob: subjectFields.dob,
  country: subjectFields.country,
  aliases: z.union([text(200), z.array(text(200)).max(10)]).optional().openapi({ description: 'Repeat the field for each other name.' }),
  employer: subjectFields.employer,
  role: subjectFields.role,
});

/** Pages of an identity document read for its holder: the identity page is the first or second. */
const IDENTITY_PAGES = 2;

type SubjectDetails = Omit<Subject, 'name' | 'source'>;

/** The sanctions index of the release being served, built on first use (api/checkers/screening/sanctions.ts). */
export function releaseSanctions(store: Pick<ReleaseStore, 'state'>): () => Promise<SanctionsLookup> {
  return async () => {
    const state = store.state();
    if (!state.ready) return { ok: false, detail: state.detail };
    try {
      return { ok: true, index: await sanctionsIndexOf(state.release.store) };
    } catch (error) {
      return { ok: false, detail: `the release's sanctions lists could not be read (${error instanceof Error ? error.message : String(error)}).` };
    }
  };
}

/** POST /v1/adverse-media (spec, Document checkers; Other checker rules: `name` OR a document). */
export default defineChecker({
  name: 'adverse-media',
  tool: ADVERSE_MEDIA_TOOL,
  path: '/v1/adverse-media',
  lane: { kind: 'judge', stored: false },
  intake: { subject: 'adverse-media screenings', accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'], maxDocuments: 1, url: 'fetch' },
  route: {
    summary: 'Screen a person against sanctions lists and adverse news',
    description:
      'Screens a `name` (or the holder of an identity document: `file`, `bytes_b64` or `url`, read from a passport\'s machine-readable ' +
      'zone or a licence\'s fields) against the sanctions lists of the loaded release (DFAT Consolidated List, UN Security Council ' +
      'Consolidated List, OFAC SDN) and against news (GDELT). News hits carry a category, a severity and the sentence that says it; ' +
      'same-name articles about someone else (a different age, place, occupation or employer) are listed under `excluded` with the ' +
      'reason. A name-only sanctions hit is `possible`, never confirmed. Lists of politically exposed persons are not screened. ' +
      'One unit of the weekly allowance per call; a call no source answered is not counted.',
    query: strictQuery({ stream: streamSwitch }),
    body: { required: true, json: AdverseMediaBody, form: AdverseMediaForm },
    reply: { schema: adverseMediaResult, description: 'The adverse-media result.' },
  },
  mcp: {
    title: 'Screen a person against sanctions lists and adverse news',
    description:
      'Screens a person by `name` (with `dob`, `country`, `aliases`, `employer`, `role` when known: they set aside same-name ' +
      'articles about someone else), or the holder of an identity document (`bytes_b64` with `filename`, or `url`: a passport or ' +
      'driver licence), against the sanctions lists of the loaded release (DFAT, UN Security Council, OFAC SDN) and against news. ' +
      'News hits carry a category (fraud, corruption_bribery, money_laundering, sanctions_evasion, terrorism, violence, ' +
      'regulatory_action, other), a severity and the sentence that says it; `excluded` lists namesakes with the reason. A ' +
      'name-only sanctions hit is `possible`, never confirmed; lists of politically exposed persons are not screened. ' +
      '`limitations` says which sources answered. Uses one unit of the weekly allowance per call in which a source answered.',
    input: AdverseMediaBody,
    output: adverseMediaResult,
  },
  sandbox: {
    summary: 'A contractor\'s director screened: no sanctions listing, one fraud article matched on employer and age, one namesake set aside.',
    reply: () => adverseMediaSandboxReply(),
  },
  agentNote:
    '`POST /v1/adverse-media` (MCP `adverse_media`) screens a `name`, or the holder of a passport or driver licence, against the ' +
    "release's sanctions lists (DFAT, UN Security Council, OFAC SDN) and news search (GDELT, when the server has it configured; " +
    'otherwise `limitations` says news was not searched), afresh on every call (news changes, so no ' +
    'stored result answers it); `limitations` names the sources that answered, and a call no source answered is not counted. ' +
    'Lists of politically exposed persons are not screened.',
  handler(deps) {
    const sanctions = releaseSanctions(deps.store);
    return async ({ c, query, json, form, documents }) => {
      const isJson = hasJsonBody(c);
      const fields = requestFields(isJson ? { json: json! } : { form: form! });
      const details = detailsOf(fields);
      if (fields.name !== undefined && fields.hasDocument) {
        return c.json({ detail: 'The request gives both `name` and a document; give one of them (the document is read only to find the name).' }, 400);
      }
      if (fields.name === undefined && !fields.hasDocument) {
        return c.json({ detail: 'Give the subject\'s `name`, or an identity document to read it from: multipart `file`, or JSON `bytes_b64` (with `filename`) or `url`.' }, 400);
      }
      // A name is judged at once; a document is read in the pool first. Either way as one JSON reply or a stream.
      const intake = fields.name === undefined ? await documents() : { documents: [] };
      const named = fields.name;
      return answer(c, deps, {
        documents: intake.documents,
        now: deps.now(),
        stream: query.stream,
        stored: undefined,
        lane: {
          kind: 'judge',
          read: { max_pages: IDENTITY_PAGES },
          judge: async (read, services, context) => {
            let subject: Subject;
            if (named !== undefined) subject = { name: naturalOrder(named), source: 'request', ...details };
            else {
              const found = subjectFromText(read);
              if (!found.ok) return { status: 422, detail: `${found.detail} Nothing was counted against your allowance.` };
              // What the caller says about the holder adds to what the document shows; the document's own fields win.
              subject = { ...found.subject, aliases: details.aliases, employer: details.employer, role: details.role, dob: found.subject.dob ?? details.dob, country: found.subject.country ?? details.country };
            }
            const screening = await screenSubject(subject, services, await sanctions(), context.progress);
            return { reply: screening.result, counts: screening.counts };
          },
        },
      });
    };
  },
});

interface RequestFields {
  name?: string;
  dob?: string;
  country?: string;
  aliases?: string[];
  employer?: string;
  role?: string;
  hasDocument: boolean;
}

/**
 * The subject fields of a JSON or multipart body, as the route's schema checked them (which schema did is
 * told by the request's content type, not guessed from the fields).
 */
function requestFields(body: { json: z.infer<typeof AdverseMediaBody> } | { form: z.infer<typeof AdverseMediaForm> }): RequestFields {
  if ('json' in body) {
    const { bytes_b64: encoded, url, filename: _filename, sandbox: _sandbox, ...fields } = body.json;
    return { ...fields, hasDocument: encoded !== undefined || url !== undefined };
  }
  const { file, aliases, ...fields } = body.form;
  return { ...fields, ...(aliases === undefined ? {} : { aliases: [aliases].flat() }), hasDocument: file !== undefined };
}

function detailsOf(fields: RequestFields): SubjectDetails {
  return {
    aliases: (fields.aliases ?? []).map(naturalOrder),
    dob: fields.dob ?? null,
    country: fields.country === undefined ? null : countryCode(fields.country),
    employer: fields.employer ?? null,
    role: fields.role ?? null,
  };
}
