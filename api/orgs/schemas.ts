import { z } from '@hono/zod-openapi';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { isValidAbn } from './profile.ts';
import { ROLES } from './roles.ts';

/** Wire schemas of the organisation routes. Request bodies are strict: an unknown field is refused with 400. */

const roleChoice = `must be one of ${ROLES.join(', ')}`;
const instant = z.iso.datetime({ offset: true });

/** A name people type: no control characters, which would also break an email subject line. */
const companyName = z
  .string({ error: 'must be the company name as text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(200, { error: 'must be at most 200 characters' })
  .regex(/^[^\p{Cc}]*$/u, { error: 'must not contain control characters such as line breaks' })
  .openapi({ example: 'Harbour Civil Pty Ltd' });

/** Says which fields a strict body takes when it meets one it does not (organisation and bid bodies). */
export function strictBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `this body takes only ${Object.keys(shape).join(', ')}` : undefined),
  });
}

export const OrgParams = z.object({
  org: z.string().openapi({ param: { name: 'org', in: 'path' }, description: 'The organisation id (`org_…`).', example: 'org_3f2a9c0d5e6b7a81' }),
});

export const DocumentParams = OrgParams.extend({
  doc_id: z.string().openapi({ param: { name: 'doc_id', in: 'path' }, description: 'The document id (`doc_…`).', example: 'doc_0a1b2c3d4e5f6071' }),
});

export const InviteTokenParams = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'The token from the invitation email.' }),
});

export const RoleSchema = z.enum(ROLES, { error: roleChoice }).openapi('OrgRole', {
  description: 'Highest first: owner, admin, member, viewer. The README lists what each may do.',
});

export const MembershipSchema = z
  .object({
    org_id: z.string(),
    company_name: z.string(),
    role: RoleSchema.openapi({ description: 'The role the signed-in account holds here.' }),
    joined_at: instant,
  })
  .openapi('Membership');

export const MembershipListSchema = z.object({ orgs: z.array(MembershipSchema) }).openapi('MembershipList');

export const CreateOrgBody = strictBody({ company_name: companyName });

export const MemberSchema = z
  .object({ account_id: z.string(), email: z.string(), role: RoleSchema, joined_at: instant })
  .openapi('Member');

export const MemberListSchema = z.object({ members: z.array(MemberSchema) }).openapi('MemberList');

export const InviteBody = strictBody({
  email: z
    .email({ error: 'must be an email address such as name@example.com' })
    .max(254, { error: 'must be at most 254 characters' })
    .openapi({ description: 'Who is invited; only an account signed in with this address can accept.' }),
  role: RoleSchema.openapi({ description: "The role to grant: not above the inviter's own." }),
});

export const InvitationSchema = z
  .object({
    invite_id: z.string(),
    org_id: z.string(),
    email: z.string(),
    role: RoleSchema,
    expires_at: instant.openapi({ description: 'The accept link stops working at this instant.' }),
  })
  .openapi('Invitation', { description: 'The invitation as issued. The token travels only in the email to the recipient.' });

const completedSteps = z
  .array(
    z.string().regex(/^[a-z0-9_]{1,40}$/, { error: 'must be step names of lower-case letters, digits and underscores, at most 40 characters each' }),
  )
  .max(30, { error: 'must list at most 30 steps' })
  .refine((steps) => new Set(steps).size === steps.length, { error: 'must not list a step twice' })
  .openapi({ description: 'Names of the onboarding steps done, as the site names them.' });

const OnboardingSchema = z
  .object({ completed_steps: completedSteps, complete: z.boolean().openapi({ description: 'True once onboarding is finished.' }) })
  .openapi('OrgOnboarding');

export const ProfileSchema = z
  .object({
    org_id: z.string(),
    company_name: z.string(),
    abn: z.string().nullable().openapi({ description: 'Australian Business Number: 11 digits without spaces.', example: '51824753556' }),
    region: z.enum(JURISDICTIONS).nullable().openapi({ description: 'Where the organisation mainly works, as a jurisdiction code.' }),
    description: z.string().nullable().openapi({ description: 'What the organisation does, in its own words.' }),
    onboarding: OnboardingSchema,
    updated_at: instant,
  })
  .openapi('OrgProfile');

export const ProfilePatchBody = strictBody({
  company_name: companyName.optional(),
  abn: z
    .string({ error: 'must be an ABN as text, or null to clear it' })
    .refine(isValidAbn, { error: 'must be an 11-digit ABN whose check digits add up; check it against the ABN Lookup (abr.business.gov.au)' })
    .nullable()
    .optional()
    .openapi({ description: 'Spaces between digit groups are allowed; the ABN checksum is verified.', example: '51 824 753 556' }),
  region: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}, or null` }).nullable().optional(),
  description: z.string().trim().max(4000, { error: 'must be at most 4000 characters' }).nullable().optional(),
  onboarding: z
    .strictObject(
      { completed_steps: completedSteps.optional(), complete: z.boolean({ error: 'must be true or false' }).optional() },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? 'onboarding takes only completed_steps and complete' : undefined) },
    )
    .optional()
    .openapi({ description: 'Merged into the stored progress: give only what changed.' }),
});

export const DocumentSchema = z
  .object({
    doc_id: z.string(),
    filename: z.string().openapi({ description: 'The name the file was uploaded with.' }),
    content_type: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    uploaded_by: z.string().openapi({ description: 'Email address of the member who uploaded it.' }),
    uploaded_at: instant,
    expires_on: z.iso.date().nullable().openapi({ description: 'The one expiry date a person set, or null.' }),
  })
  .openapi('LibraryDocument');

export const DocumentListSchema = z.object({ documents: z.array(DocumentSchema) }).openapi('LibraryDocumentList');

export const UploadForm = z.object({
  file: z
    .custom<File>((value) => value instanceof File, { error: 'must be one file, sent as the multipart/form-data field "file"' })
    .openapi({ type: 'string', format: 'binary', description: 'The document, at most 25 MB.' }),
});

export const DocumentPatchBody = strictBody({
  expires_on: z.iso
    .date({ error: 'must be a calendar date such as 2027-06-30, or null to clear it' })
    .nullable()
    .openapi({ description: 'The date the document expires (YYYY-MM-DD), or null.' }),
});

export const DeletedSchema = z.object({ doc_id: z.string(), deleted: z.literal(true) }).openapi('DeletedDocument');
