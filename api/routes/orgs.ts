import { OpenAPIHono, createRoute, type RouteHandler } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { FileStore } from '../../lib/file-store/store.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { Caller } from '../accounts/caller.ts';
import { DocumentLibrary, LARGEST_DOCUMENT_BYTES } from '../orgs/documents.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { acceptInvitation, invitationEmail, issueInvitation, withdrawInvitation } from '../orgs/invitations.ts';
import { createOrg, emailOf, membersOf, membershipOf, orgsOf, type Membership } from '../orgs/orgs.ts';
import { readProfile, updateProfile } from '../orgs/profile.ts';
import { may, rolesThatMay, type Permission } from '../orgs/roles.ts';
import {
  CreateOrgBody,
  DeletedSchema,
  DocumentListSchema,
  DocumentParams,
  DocumentPatchBody,
  DocumentSchema,
  InvitationSchema,
  InviteBody,
  InviteTokenParams,
  MemberListSchema,
  MembershipListSchema,
  MembershipSchema,
  OrgParams,
  ProfilePatchBody,
  ProfileSchema,
  UploadForm,
} from '../orgs/schemas.ts';
import type { StateDb } from '../../data/state/db.ts';
import { routeBodyLimit } from '../middleware/body-limit.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface OrgRoutesOptions {
  state: StateDb;
  /** Sends invitation emails. */
  mailer: Mailer;
  /** The file store's part for library documents (`documents/`), or a folder: one prefix per organisation beneath it. */
  documentFiles: FileStore | string;
  /** The service's public base address, which invitation links start with, such as `https://tenders.example.com`. */
  publicUrl: string;
  now?: () => Date;
  /** Where a failed invitation email is reported. */
  log?: (error: unknown, c: Context) => void;
}

/** The caller middleware's variables plus the signed-in account every organisation route acts for. */
export interface OrgEnv {
  Variables: { caller: Caller; accountId: string };
}

const NOT_SIGNED_IN = 'Organisation routes need a signed-in session: sign in with POST /v1/auth/login and send the svc_session cookie; API keys do not open them.';
// One sentence for a missing organisation and for one the caller does not belong to, so the reply
// never tells an outsider that an organisation exists.
const NOT_VISIBLE = 'No organisation with this id is visible to you: check the id, or ask one of its owners or admins to invite you.';
const BAD_INVITATION =
  'This invitation link does not work: it may be mistyped, expired, already used or addressed to another email address than the one you are signed in with. Ask the organisation for a new invitation.';
const TOO_LARGE = `The document is larger than ${LARGEST_DOCUMENT_BYTES / 1024 / 1024} MB, the most the library takes; upload a smaller file or split it.`;
// Multipart framing (boundaries, part headers) on top of the largest file allowed.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const notSignedIn = errorReply('No signed-in session.');
const notVisible = errorReply('No such organisation, or the caller is not a member: the same reply for both.');
const invalid = (what: string) => errorReply(`${what}; \`detail\` names the field.`);
const wrongMediaType = errorReply('The body is not in the media type this route reads.');
const forbidden = (what: string) => errorReply(`The caller's role may not ${what}.`);
const tags = ['Organisations'];
// Every organisation route answers a signed-in session only (the signedIn middleware below).
const sessionOnly: Record<string, string[]>[] = [{ session: [] }];

const orgOverviewRoute = createRoute({
  method: 'get',
  path: '/v1/orgs/{org}',
  tags,
  security: sessionOnly,
  summary: 'One organisation, in one read',
  description:
    'Everything the organisation page shows: your membership (role), the profile, the members and the document library, each as its own route answers it. Members only.',
  request: { params: OrgParams },
  responses: {
    200: {
      description: 'The membership, profile, members and documents.',
      content: json(MembershipSchema.extend({ profile: ProfileSchema, members: MemberListSchema.shape.members, documents: DocumentListSchema.shape.documents }).openapi('OrgOverview')),
    },
    401: notSignedIn,
    404: notVisible,
  },
});

const listOrgsRoute = createRoute({
  method: 'get',
  path: '/v1/orgs',
  tags,
  security: sessionOnly,
  summary: 'Organisations of the signed-in account',
  responses: {
    200: { description: 'Each organisation with the role the account holds there.', content: json(MembershipListSchema) },
    401: notSignedIn,
  },
});

const createOrgRoute = createRoute({
  method: 'post',
  path: '/v1/orgs',
  tags,
  security: sessionOnly,
  summary: 'Create an organisation',
  description: 'The signed-in account becomes its owner.',
  middleware: [bodyMediaType('json')] as const,
  request: { body: { required: true, content: json(CreateOrgBody) } },
  responses: {
    201: { description: 'The new organisation, with the role `owner`.', content: json(MembershipSchema) },
    422: invalid('The body does not match the schema: the company name is missing or invalid, or the body has an unknown field'),
    401: notSignedIn,
    415: wrongMediaType,
  },
});

const inviteRoute = createRoute({
  method: 'post',
  path: '/v1/orgs/{org}/invites',
  tags,
  security: sessionOnly,
  summary: 'Invite someone by email',
  description:
    "Emails an accept link valid for 7 days. The role may not be above the inviter's; owners and admins may invite. " +
    'A newer invitation to the same address withdraws earlier unused ones.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: OrgParams, body: { required: true, content: json(InviteBody) } },
  responses: {
    201: { description: 'The invitation; the token is only in the email.', content: json(InvitationSchema) },
    400: invalid('Unknown field, malformed email address or unknown role'),
    401: notSignedIn,
    415: wrongMediaType,
    403: forbidden("invite, or the role asked for is above the inviter's"),
    404: notVisible,
    409: errorReply('The address already belongs to a member.'),
    503: errorReply('The invitation email could not be sent; the invitation was withdrawn (`Retry-After` says when to try again).'),
  },
});

const acceptRoute = createRoute({
  method: 'post',
  path: '/v1/orgs/invites/{token}/accept',
  tags,
  security: sessionOnly,
  summary: 'Accept an invitation',
  description: "The signed-in account's email must be the invitation's recipient; the account joins with the invited role.",
  request: { params: InviteTokenParams },
  responses: {
    200: { description: 'The organisation joined, with the role now held.', content: json(MembershipSchema) },
    401: notSignedIn,
    404: errorReply('The token is unknown, expired, used, withdrawn or for another recipient: the same reply for each.'),
  },
});

const membersRoute = createRoute({
  method: 'get',
  path: '/v1/orgs/{org}/members',
  tags,
  security: sessionOnly,
  summary: 'Members of an organisation',
  request: { params: OrgParams },
  responses: {
    200: { description: 'Every member with their role, highest role first.', content: json(MemberListSchema) },
    401: notSignedIn,
    404: notVisible,
  },
});

const profileRoute = createRoute({
  method: 'get',
  path: '/v1/orgs/{org}/profile',
  tags,
  security: sessionOnly,
  summary: 'Organisation profile',
  request: { params: OrgParams },
  responses: {
    200: { description: 'Company name, ABN, region, what the organisation does and onboarding progress.', content: json(ProfileSchema) },
    401: notSignedIn,
    404: notVisible,
  },
});

const patchProfileRoute = createRoute({
  method: 'patch',
  path: '/v1/orgs/{org}/profile',
  tags,
  security: sessionOnly,
  summary: 'Change the organisation profile',
  description: 'Any subset of the fields; null clears one. Owners and admins may edit.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: OrgParams, body: { required: true, content: json(ProfilePatchBody) } },
  responses: {
    200: { description: 'The full profile after the change.', content: json(ProfileSchema) },
    400: invalid('An unknown field, an ABN that fails its checksum or another invalid value'),
    401: notSignedIn,
    415: wrongMediaType,
    403: forbidden('edit the profile'),
    404: notVisible,
  },
});

const listDocumentsRoute = createRoute({
  method: 'get',
  path: '/v1/orgs/{org}/documents',
  tags,
  security: sessionOnly,
  summary: 'The organisation document library',
  request: { params: OrgParams },
  responses: {
    200: { description: 'Every document, newest first, with its expiry date.', content: json(DocumentListSchema) },
    401: notSignedIn,
    404: notVisible,
  },
});

const uploadDocumentRoute = createRoute({
  method: 'post',
  path: '/v1/orgs/{org}/documents',
  tags,
  security: sessionOnly,
  summary: 'Upload a document to the library',
  description: 'Multipart field `file`, at most 25 MB. Owners, admins and members may upload.',
  middleware: [
    // Refuses an oversized body from its Content-Length, or while it streams, before it is read whole.
    routeBodyLimit({ maxSize: LARGEST_DOCUMENT_BYTES + MULTIPART_OVERHEAD_BYTES, onError: (c) => c.json({ detail: TOO_LARGE }, 413) }),
    bodyMediaType('multipart'),
  ] as const,
  request: { params: OrgParams, body: { required: true, content: { 'multipart/form-data': { schema: UploadForm } } } },
  responses: {
    201: { description: 'The stored document.', content: json(DocumentSchema) },
    400: invalid('No file, more than one, or an empty one'),
    401: notSignedIn,
    403: forbidden('upload documents'),
    404: notVisible,
    413: errorReply('The file is over 25 MB.'),
    415: wrongMediaType,
  },
});

const patchDocumentRoute = createRoute({
  method: 'patch',
  path: '/v1/orgs/{org}/documents/{doc_id}',
  tags,
  security: sessionOnly,
  summary: "Set a document's expiry date",
  description: 'Anyone who may upload may set it.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: DocumentParams, body: { required: true, content: json(DocumentPatchBody) } },
  responses: {
    200: { description: 'The document with its new expiry date.', content: json(DocumentSchema) },
    400: invalid('Not a calendar date, or an unknown field'),
    401: notSignedIn,
    415: wrongMediaType,
    403: forbidden('change documents'),
    404: errorReply('No such organisation or document visible to the caller.'),
  },
});

const deleteDocumentRoute = createRoute({
  method: 'delete',
  path: '/v1/orgs/{org}/documents/{doc_id}',
  tags,
  security: sessionOnly,
  summary: 'Delete a document',
  description: 'Removes the record and the stored file. Anyone who may upload may delete.',
  request: { params: DocumentParams },
  responses: {
    200: { description: 'The document is gone.', content: json(DeletedSchema) },
    401: notSignedIn,
    403: forbidden('delete documents'),
    404: errorReply('No such organisation or document visible to the caller.'),
  },
});

/**
 * The organisation routes (spec, Organisations): organisations, invitations, members, profile and the
 * document library. Every route needs a signed-in session; members-only routes answer a non-member
 * exactly as they answer for an organisation that does not exist. Mount it after `caller()`.
 *
 * @example
 * app.use('*', caller({ state }));
 * app.route('/', orgRoutes({ state, mailer, documentFiles: withinPrefix(fileStore, DOCUMENTS_PREFIX), publicUrl: 'https://tenders.example.com' }));
 */
export function orgRoutes(options: OrgRoutesOptions): OpenAPIHono<OrgEnv> {
  const { state, mailer } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((error: unknown, c: Context) => console.error(`${c.req.method} ${c.req.path}: invitation email failed:`, error));
  const library = new DocumentLibrary(state, options.documentFiles);
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const app = new OpenAPIHono<OrgEnv>({ defaultHook: invalidInputAnswers<OrgEnv>(400) });

  const signedIn: MiddlewareHandler<OrgEnv> = async (c, next) => {
    const caller = c.get('caller');
    if (caller.kind !== 'session') return c.json({ detail: NOT_SIGNED_IN }, 401);
    c.set('accountId', caller.accountId);
    await next();
  };
  // Before the routes' validators, so a caller without a session learns nothing about the inputs. The
  // pattern also matches /v1/orgs itself.
  app.use('/v1/orgs/*', signedIn);

  const visible = async (c: Context<OrgEnv>, orgId: string): Promise<Membership | null> => await membershipOf(state, orgId, c.get('accountId'));

  app.openapi(listOrgsRoute, async (c) => c.json({ orgs: await orgsOf(state, c.get('accountId')) }, 200));

  // The spec answers 400 only for an unknown profile field or invite input; the body creating an organisation
  // follows the general rule, 422, so its route has a validation hook of its own.
  const creation = new OpenAPIHono<OrgEnv>({ defaultHook: invalidInputAnswers<OrgEnv>(422) });
  creation.openapi(createOrgRoute, async (c) => c.json(await createOrg(state, c.get('accountId'), c.req.valid('json').company_name, now()), 201));
  app.route('/', creation);

  app.openapi(acceptRoute, async (c) => {
    const membership = await acceptInvitation(state, c.req.valid('param').token, c.get('accountId'), now());
    return membership ? c.json(membership, 200) : c.json({ detail: BAD_INVITATION }, 404);
  });

  app.openapi(inviteRoute, inviteHandler({ state, mailer, publicUrl, now, log }));

  app.openapi(orgOverviewRoute, async (c) => {
    const membership = await visible(c, c.req.valid('param').org);
    const profile = membership && await readProfile(state, membership.org_id);
    if (!membership || !profile) return c.json({ detail: NOT_VISIBLE }, 404);
    return c.json({ ...membership, profile, members: await membersOf(state, membership.org_id), documents: await library.list(membership.org_id) }, 200);
  });

  app.openapi(membersRoute, async (c) => {
    const membership = await visible(c, c.req.valid('param').org);
    if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
    return c.json({ members: await membersOf(state, membership.org_id) }, 200);
  });

  app.openapi(profileRoute, async (c) => {
    const membership = await visible(c, c.req.valid('param').org);
    const profile = membership && await readProfile(state, membership.org_id);
    return profile ? c.json(profile, 200) : c.json({ detail: NOT_VISIBLE }, 404);
  });

  app.openapi(patchProfileRoute, async (c) => {
    const membership = await visible(c, c.req.valid('param').org);
    if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
    if (!may(membership.role, 'edit_profile')) return c.json({ detail: refusal(membership, 'edit_profile', 'edit the profile') }, 403);
    const profile = await updateProfile(state, membership.org_id, c.req.valid('json'), now());
    return profile ? c.json(profile, 200) : c.json({ detail: NOT_VISIBLE }, 404);
  });

  documentRoutes(app, { state, library, now });

  return app;
}

const noDocument = (membership: Membership) =>
  `${membership.company_name} has no document with this id; GET /v1/orgs/${membership.org_id}/documents lists the documents it holds.`;
const refusal = (membership: Membership, permission: Permission, action: string) =>
  `Your role here (${membership.role}) may not ${action}; ask someone with the role ${rolesThatMay(permission).join(' or ')}.`;

interface InviteDeps {
  state: StateDb;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  log: (error: unknown, c: Context) => void;
}

/** POST /v1/orgs/{org}/invites: the invitation, and its email; an email that cannot be sent withdraws it. */
function inviteHandler({ state, mailer, publicUrl, now, log }: InviteDeps): RouteHandler<typeof inviteRoute, OrgEnv> {
  return async (c) => {
    const membership = await membershipOf(state, c.req.valid('param').org, c.get('accountId'));
    if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
    const { email, role } = c.req.valid('json');
    const outcome = await issueInvitation(state, { orgId: membership.org_id, inviterId: c.get('accountId'), inviterRole: membership.role, email, role, now: now() });
    if (outcome.kind === 'refused') {
      if (outcome.reason === 'no_permission') return c.json({ detail: refusal(membership, 'invite', 'invite people') }, 403);
      if (outcome.reason === 'role_above_inviter') {
        return c.json({ detail: `You hold the role ${membership.role} here, so you may invite people as ${membership.role} or below, not as ${role}.` }, 403);
      }
      return c.json({ detail: `${email} is already a member of ${membership.company_name}; GET /v1/orgs/${membership.org_id}/members lists everyone.` }, 409);
    }
    const { invitation, token } = outcome;
    try {
      await mailer.send(
        invitationEmail({
          to: invitation.email,
          companyName: membership.company_name,
          inviterEmail: await emailOf(state, c.get('accountId')) ?? 'A member',
          role: invitation.role,
          acceptPageUrl: `${publicUrl}/account/orgs/#invite=${token}`,
          acceptUrl: `${publicUrl}/v1/orgs/invites/${token}/accept`,
          expiresAt: invitation.expires_at,
        }),
      );
    } catch (error) {
      log(error, c);
      await withdrawInvitation(state, invitation.invite_id, now());
      c.header('Retry-After', '60');
      return c.json({ detail: 'The invitation email could not be sent, so the invitation was withdrawn; try again in a minute.' }, 503);
    }
    return c.json(invitation, 201);
  };
}

/** The document library of an organisation: list, upload, set an expiry, delete. */
function documentRoutes(app: OpenAPIHono<OrgEnv>, { state, library, now }: { state: StateDb; library: DocumentLibrary; now: () => Date }): void {
app.openapi(listDocumentsRoute, async (c) => {
  const membership = await membershipOf(state, c.req.valid('param').org, c.get('accountId'));
  if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
  return c.json({ documents: await library.list(membership.org_id) }, 200);
});

app.openapi(uploadDocumentRoute, async (c) => {
  const membership = await membershipOf(state, c.req.valid('param').org, c.get('accountId'));
  if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
  if (!may(membership.role, 'manage_documents')) return c.json({ detail: refusal(membership, 'manage_documents', 'upload documents') }, 403);
  const { file } = c.req.valid('form');
  if (file.size > LARGEST_DOCUMENT_BYTES) return c.json({ detail: TOO_LARGE }, 413);
  if (file.size === 0) return c.json({ detail: 'The uploaded file is empty; choose the document again and upload it.' }, 400);
  const document = await library.add({
    orgId: membership.org_id,
    accountId: c.get('accountId'),
    filename: file.name,
    contentType: file.type,
    bytes: new Uint8Array(await file.arrayBuffer()),
    now: now(),
  });
  return c.json(document, 201);
});

app.openapi(patchDocumentRoute, async (c) => {
  const { org, doc_id: docId } = c.req.valid('param');
  const membership = await membershipOf(state, org, c.get('accountId'));
  if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
  if (!may(membership.role, 'manage_documents')) return c.json({ detail: refusal(membership, 'manage_documents', 'change documents') }, 403);
  const document = await library.setExpiry(membership.org_id, docId, c.req.valid('json').expires_on);
  return document ? c.json(document, 200) : c.json({ detail: noDocument(membership) }, 404);
});

app.openapi(deleteDocumentRoute, async (c) => {
  const { org, doc_id: docId } = c.req.valid('param');
  const membership = await membershipOf(state, org, c.get('accountId'));
  if (!membership) return c.json({ detail: NOT_VISIBLE }, 404);
  if (!may(membership.role, 'manage_documents')) return c.json({ detail: refusal(membership, 'manage_documents', 'delete documents') }, 403);
  return (await library.remove(membership.org_id, docId)) ? c.json({ doc_id: docId, deleted: true as const }, 200) : c.json({ detail: noDocument(membership) }, 404);
});
}
