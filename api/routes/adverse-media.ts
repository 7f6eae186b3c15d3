import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { screenSubject, type SanctionsLookup } from '../checkers/adverse-media/analyse.ts';
import { adverseMediaResult } from '../checkers/adverse-media/result.ts';
import { countryCode, naturalOrder, subjectFromText, type Subject } from '../checkers/adverse-media/subject.ts';
import { sanctionsIndexOf } from '../checkers/screening/sanctions.ts';
import { answerWithServices, judgedReplyCounts } from '../documents/answer-services.ts';
import { readDocuments, type IntakeRules } from '../documents/intake.ts';
import type { CallerEnv } from '../middleware/caller.ts';
import { errorReplies } from '../middleware/errors.ts';
import { metered } from '../middleware/metered.ts';
import type { SandboxEnv } from '../middleware/sandbox.ts';
import type { ReleaseStore } from '../release-store.ts';
import { checkerErrors, checkerReply, documentBytes, documentFilename, documentUrl, streamSwitch, uploadedFile } from '../schemas/checkers.ts';
import { hasJsonBody, sandboxField, strictQuery } from '../schemas/common.ts';
import type { CheckerDeps } from './checker-deps.ts';
import { adverseMediaSandboxReply } from './checker-sandbox.ts';

/** The sandbox registry's name for this tool, and its MCP tool's name. */
export const ADVERSE_MEDIA_TOOL = 'adverse_media';

export interface AdverseMediaDeps extends CheckerDeps {
  /** The loaded release's sanctions index, or why there is none. */
  sanctions: () => Promise<SanctionsLookup>;
}

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

const route = (deps: AdverseMediaDeps) => createRoute({
  method: 'post',
  path: '/v1/adverse-media',
  tags: ['Document checkers'],
  summary: 'Screen a person against sanctions lists and adverse news',
  description:
    'Screens a `name` (or the holder of an identity document: `file`, `bytes_b64` or `url`, read from a passport\'s machine-readable ' +
    'zone or a licence\'s fields) against the sanctions lists of the loaded release (DFAT Consolidated List, UN Security Council ' +
    'Consolidated List, OFAC SDN) and against news (GDELT). News hits carry a category, a severity and the sentence that says it; ' +
    'same-name articles about someone else (a different age, place, occupation or employer) are listed under `excluded` with the ' +
    'reason. A name-only sanctions hit is `possible`, never confirmed. Lists of politically exposed persons are not screened. ' +
    'One unit of the weekly allowance per call; a call no source answered is not counted.',
  middleware: [deps.sandbox.middleware(ADVERSE_MEDIA_TOOL), metered({ meter: deps.meter, countIf: judgedReplyCounts })] as const,
  request: {
    query: strictQuery({ stream: streamSwitch }),
    body: { required: true, content: { 'application/json': { schema: AdverseMediaBody }, 'multipart/form-data': { schema: AdverseMediaForm } } },
  },
  responses: { 200: checkerReply(adverseMediaResult, 'The adverse-media result.'), ...checkerErrors },
});

const rules = (deps: CheckerDeps): IntakeRules => ({
  checker: 'adverse-media screenings',
  accepts: ['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff'],
  maxDocuments: 1,
  url: { fetch: deps.fetchDocument },
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
export function adverseMediaRoutes(deps: AdverseMediaDeps): OpenAPIHono<CallerEnv & SandboxEnv> {
  const app = new OpenAPIHono<CallerEnv & SandboxEnv>({ defaultHook: errorReplies<CallerEnv & SandboxEnv>().validationHook });
  deps.sandbox.register(ADVERSE_MEDIA_TOOL, {
    summary: 'A contractor\'s director screened: no sanctions listing, one fraud article matched on employer and age, one namesake set aside.',
    reply: () => adverseMediaSandboxReply(),
  });
  app.openapi(route(deps), async (c) => {
    const query = c.req.valid('query');
    const isJson = hasJsonBody(c);
    const fields = requestFields(isJson ? c.req.valid('json') : c.req.valid('form'), isJson);
    const details = detailsOf(fields);
    if (fields.name !== undefined && fields.hasDocument) {
      return c.json({ detail: 'The request gives both `name` and a document; give one of them (the document is read only to find the name).' }, 400);
    }
    if (fields.name === undefined && !fields.hasDocument) {
      return c.json({ detail: 'Give the subject\'s `name`, or an identity document to read it from: multipart `file`, or JSON `bytes_b64` (with `filename`) or `url`.' }, 400);
    }
    // A name is judged at once; a document is read in the pool first. Either way as one JSON reply or a stream.
    const intake = fields.name === undefined ? await readDocuments(c, rules(deps)) : { documents: [] };
    const named = fields.name;
    return answerWithServices(c, deps, {
      documents: intake.documents,
      read: { max_pages: IDENTITY_PAGES },
      now: deps.now(),
      stream: query.stream,
      judge: async (read, services, context) => {
        let subject: Subject;
        if (named !== undefined) subject = { name: naturalOrder(named), source: 'request', ...details };
        else {
          const found = subjectFromText(read);
          if (!found.ok) return { status: 422, detail: `${found.detail} Nothing was counted against your allowance.` };
          // What the caller says about the holder adds to what the document shows; the document's own fields win.
          subject = { ...found.subject, aliases: details.aliases, employer: details.employer, role: details.role, dob: found.subject.dob ?? details.dob, country: found.subject.country ?? details.country };
        }
        const screening = await screenSubject(subject, services, await deps.sanctions(), context.progress);
        return { reply: screening.result, counts: screening.counts };
      },
    });
  });
  return app;
}

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
function requestFields(body: z.infer<typeof AdverseMediaBody> | z.infer<typeof AdverseMediaForm>, isJson: boolean): RequestFields {
  if (isJson) {
    const { bytes_b64: encoded, url, filename: _filename, sandbox: _sandbox, ...fields } = body as z.infer<typeof AdverseMediaBody>;
    return { ...fields, hasDocument: encoded !== undefined || url !== undefined };
  }
  const { file, aliases, ...fields } = body as z.infer<typeof AdverseMediaForm>;
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
