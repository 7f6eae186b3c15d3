import { z } from '@hono/zod-openapi';
import { sameSitePath } from '../accounts/next-path.ts';
import { MembershipSchema } from '../orgs/schemas.ts';

/** Wire schemas of sign-in, the signed-in account, keys, usage and pricing. */

const isoInstant = z.iso.datetime({ offset: true });

/** Where a followed sign-in link lands: a path on this site only, so the link cannot send anyone elsewhere. */
const NextPath = z
  .string()
  .max(2000, { error: 'must be at most 2000 characters' })
  .refine((value) => sameSitePath(value) !== null, { error: 'must be a path on this site beginning with a single /, such as /buyers/' })
  .transform((value) => sameSitePath(value)!);

export const LoginBody = z
  .strictObject({
    email: z.email({ error: 'must be an email address such as person@example.com' }).max(254, { error: 'must be at most 254 characters' }),
    next: NextPath.optional()
      .openapi({ description: 'A path on this site to land on after following the link, such as `/buyers/`; default `/`.', example: '/buyers/' }),
  })
  .openapi('LoginRequest');

export const LoginSentSchema = z
  .object({
    sent_to: z.string().openapi({ description: 'The address the link was sent to.' }),
    valid_for_seconds: z.number().int().openapi({ description: 'How long the link works; it works once.' }),
  })
  .openapi('LoginSent');

export const CallbackQuery = z.object({
  token: z.string().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' })
    .openapi({ description: 'The token from the emailed sign-in link.' }),
  next: NextPath.optional().openapi({ description: 'The path the link was asked for (`next` of the login); default `/`.' }),
});

export const AccountSchema = z
  .object({
    account_id: z.string(),
    email: z.string().openapi({ description: 'The address sign-in links go to.' }),
    created_at: isoInstant.openapi({ description: 'When the account was created: its first sign-in.' }),
    session_expires_at: isoInstant.openapi({ description: 'When this session ends; then sign in again with a new link.' }),
    orgs: z.array(MembershipSchema).openapi({ description: 'Organisations the account belongs to, with its role in each (as GET /v1/orgs).' }),
  })
  .openapi('Account');

export const SignedOutSchema = z.object({ signed_out: z.literal(true) }).openapi('SignedOut');

export const KeyScopeSchema = z.enum(['api', 'mcp']).openapi({
  description: '`api` for REST and MCP calls with `Authorization: Bearer`; `mcp` for a connector URL, refused outside /mcp.',
});

export const KeyMetadataSchema = z
  .object({
    key_id: z.string(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The first characters of the key, to recognise it by.' }),
    scope: KeyScopeSchema,
    created_at: isoInstant,
    last_used_at: isoInstant.nullable().openapi({ description: 'Null while the key has never been used.' }),
    disabled: z.boolean().openapi({ description: 'True when we disabled the key; it answers 401 until restored and still counts toward the cap.' }),
  })
  .openapi('KeyMetadata');

export const KeyListSchema = z.object({ keys: z.array(KeyMetadataSchema) }).openapi('KeyList');

export const CreateKeyBody = z
  .strictObject({
    name: z.string().trim().min(1, { error: 'must not be empty' }).max(100, { error: 'must be at most 100 characters' }).optional()
      .openapi({ description: 'A label to recognise the key by; default "API key".' }),
  })
  .openapi('CreateKeyRequest');

/** What a replay of a reply carrying a secret says in its place (api/middleware/idempotency.ts, withholdOnReplay). */
const replayWithheld = (field: string) => ({
  withheld: z.array(z.literal(field)).optional()
    .openapi({ description: `Only on a replay (\`Idempotent-Replayed: true\`): \`["${field}"]\`, left out because it is shown once and never stored.` }),
  withheld_reason: z.string().optional().openapi({ description: 'Only on a replay: why the field is left out and what to do if it was lost.' }),
});

export const CreatedKeySchema = KeyMetadataSchema.extend({
  api_key: z.string().optional()
    .openapi({ description: 'The key itself, shown this once: only its hash is kept. Absent on a replay of the same `Idempotency-Key`.', example: 'svc_3q2v…' }),
  ...replayWithheld('api_key'),
}).openapi('CreatedKey');

export const KeyIdParams = z.object({
  key_id: z.string().max(100).openapi({ param: { name: 'key_id', in: 'path' }, example: 'key_3f2a9c0d5e6b7a81' }),
});

export const RevokedKeySchema = z
  .object({ key_id: z.string(), revoked_at: isoInstant })
  .openapi('RevokedKey');

export const LinkKeyBody = z
  .strictObject({
    api_key: z.string().regex(/^svc_[A-Za-z0-9_-]{1,200}$/, { error: 'must be an API key beginning svc_' })
      .openapi({ description: 'The key to attach, in full: presenting it proves you hold it.' }),
  })
  .openapi('LinkKeyRequest');

export const ConnectorSchema = z
  .object({
    url: z.url().optional()
      .openapi({ description: 'Paste this into a chat connector that takes only a URL; shown this once. Absent on a replay of the same `Idempotency-Key`.' }),
    key_id: z.string(),
    ...replayWithheld('url'),
  })
  .openapi('Connector');

export const UsageSchema = z
  .object({
    key_id: z.string().optional().openapi({ description: 'The key the call was made with, when one was.' }),
    counted_per: z.enum(['ip', 'account', 'key']).openapi({
      description: '`ip`: anonymous calls from this address share the allowance; `account`: every key and session of the account does; `key`: a key that belongs to no account.',
    }),
    current: z.object({
      limit: z.number().int().openapi({ description: 'Checker calls allowed this week.' }),
      used: z.number().int().openapi({ description: 'Calls counted this week.' }),
      remaining: z.number().int().openapi({ description: 'Calls left this week (calls in progress hold one each).' }),
      reset_at: isoInstant.openapi({ description: 'When the allowance resets: the next Monday 00:00 Australia/Sydney.' }),
    }),
  })
  .openapi('Usage');

export const PricingSchema = z
  .object({
    checkers: z.object({
      price: z.literal(0).openapi({ description: 'Every checker is free within the weekly allowance.' }),
      weekly_allowance: z.object({
        anonymous_per_ip: z.number().int(),
        per_account: z.number().int().openapi({ description: 'Shared by all the keys and sessions of an account; a key with no account has its own.' }),
      }),
      week: z.string().openapi({ description: 'When the weekly allowance resets.' }),
      reset_at: isoInstant,
      not_counted: z.array(z.string()).openapi({ description: 'What never uses the allowance.' }),
    }),
    bid_preparation: z.object({
      available: z.boolean().openapi({ description: 'True when a bid can be bought here: a price is set and payment is set up.' }),
      amount: z.number().optional().openapi({ description: 'Flat fee per bid, in major units of `currency`; shown whenever a price is set.' }),
      currency: z.string().optional().openapi({ description: 'ISO 4217 code.' }),
      detail: z.string().openapi({ description: 'A sentence saying how to buy it, or why it cannot be bought here.' }),
    }),
  })
  .openapi('Pricing');

export const SessionSchema = z
  .object({
    signed_in: z.boolean(),
    email: z.string().optional().openapi({ description: 'The signed-in address; absent when nobody is signed in.' }),
    session_expires_at: isoInstant.optional().openapi({ description: 'When the session ends; absent when nobody is signed in.' }),
  })
  .openapi('Session');
