import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { KEYS_PER_ACCOUNT, linkKey, listKeys, mintKey, revokeKey, type KeyOwner } from '../accounts/keys.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import { withholdOnReplay } from '../middleware/idempotency.ts';
import {
  ConnectorSchema,
  CreateKeyBody,
  CreatedKeySchema,
  KeyIdParams,
  KeyListSchema,
  KeyMetadataSchema,
  LinkKeyBody,
  RevokedKeySchema,
} from '../schemas/account.ts';
import type { StateDb } from '../../data/state/db.ts';
import type { Meter } from '../usage/meter.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface KeyRoutesOptions {
  state: StateDb;
  meter: Pick<Meter, 'moveKeyToAccount'>;
  /** The service's public address: connector URLs point here. */
  publicUrl: string;
  now: () => Date;
}

const sessionOnly: Record<string, string[]>[] = [{ session: [] }];
const sessionOrKey: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];
const capDetail =
  `This account already has ${KEYS_PER_ACCOUNT} keys, connector keys included, the most it may hold. ` +
  'Revoke one with DELETE /v1/keys/{key_id}, then try again.';
const capReply = errorReply(`The account already holds ${KEYS_PER_ACCOUNT} unrevoked keys (connector keys count; disabled keys count until revoked).`);
const needsSession = errorReply('No signed-in session: sign in with POST /v1/auth/login first. An API key cannot do this.');
const crossSite = errorReply('The request came from another site (a signed-in change must come from the service\'s own pages).');

const createKeyRoute = createRoute({
  method: 'post',
  path: '/v1/keys',
  tags: ['Keys'],
  summary: 'Create an API key',
  description:
    `Signed-in accounts only. The key is shown once in \`api_key\`; only its hash is kept. At most ${KEYS_PER_ACCOUNT} per account, connector keys included; ` +
    'the account\'s keys share its weekly allowance. A retry with the same `Idempotency-Key` mints nothing and replays the reply without `api_key` ' +
    '(`withheld` names it): the key is never stored, so it cannot be shown again.',
  security: sessionOnly,
  request: { body: { required: false, content: json(CreateKeyBody) } },
  responses: {
    201: { description: 'The new key, shown this once (a replay leaves `api_key` out).', content: json(CreatedKeySchema) },
    401: needsSession,
    403: crossSite,
    409: capReply,
    422: errorReply('The body does not match the schema.'),
  },
});

const listKeysRoute = createRoute({
  method: 'get',
  path: '/v1/keys',
  tags: ['Keys'],
  summary: 'List API keys',
  description: 'A session lists its account\'s keys; a key lists its account\'s keys, or itself when it belongs to no account. Never the key itself or its hash.',
  security: sessionOrKey,
  responses: {
    200: { description: 'Unrevoked keys, oldest first.', content: json(KeyListSchema) },
    401: errorReply('No key or session was presented, or the key is not valid.'),
  },
});

const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/v1/keys/{key_id}',
  tags: ['Keys'],
  summary: 'Revoke an API key',
  description: 'By a session of the account that owns it, or by the key itself. Immediate: the very next request with the key answers 401.',
  security: sessionOrKey,
  request: { params: KeyIdParams },
  responses: {
    200: { description: 'Revoked.', content: json(RevokedKeySchema) },
    401: errorReply('No key or session was presented, or the key is not valid.'),
    403: crossSite,
    404: errorReply('You hold no unrevoked key with this id (another account\'s key answers the same).'),
  },
});

const linkKeyRoute = createRoute({
  method: 'post',
  path: '/v1/account/keys/link',
  tags: ['Keys'],
  summary: 'Attach an anonymously minted key to your account',
  description:
    'Presenting the key in full proves you hold it. From then on it shares the account\'s weekly allowance, and what it used this week moves with it. It counts toward the key cap.',
  security: sessionOnly,
  request: { body: { required: true, content: json(LinkKeyBody) } },
  responses: {
    200: { description: 'The key now belongs to the account (also when it already did).', content: json(KeyMetadataSchema) },
    401: needsSession,
    403: crossSite,
    404: errorReply('No usable key matches: unknown, revoked or disabled.'),
    409: errorReply(`The key belongs to another account, or this account already holds ${KEYS_PER_ACCOUNT} keys.`),
    422: errorReply('The body is not `{api_key}` with a key beginning `svc_`.'),
  },
});

const connectorRoute = createRoute({
  method: 'post',
  path: '/v1/mcp/connector',
  tags: ['Keys'],
  summary: 'Mint a connector URL for chat clients',
  description:
    'For chat connectors that take only a URL: `/mcp/c/<key>` with a key scoped to MCP, refused outside /mcp. Shown once; counts toward the key cap; revoke it like any key. ' +
    'A retry with the same `Idempotency-Key` mints nothing and replays the reply without `url` (`withheld` names it).',
  security: sessionOnly,
  responses: {
    201: { description: 'The connector URL, shown this once (a replay leaves `url` out).', content: json(ConnectorSchema) },
    401: needsSession,
    403: crossSite,
    409: capReply,
  },
});

/** The signed-in account, or null for any other caller. */
function sessionAccount(c: Context<CallerEnv>): string | null {
  const caller = c.get('caller');
  return caller.kind === 'session' ? caller.accountId : null;
}

/** Whose keys a caller may list and revoke: a session's or key's account, or a key of no account itself. */
function keyOwner(caller: Caller): KeyOwner | null {
  switch (caller.kind) {
    case 'anonymous':
      return null;
    case 'session':
      return { accountId: caller.accountId };
    case 'key':
      return caller.accountId === null ? { keyId: caller.keyId } : { accountId: caller.accountId };
  }
}

/** Why a replayed reply lacks its secret: shown once, never stored. */
const shownOnce = (what: string) =>
  `The ${what} is shown once, on the first reply, and never stored, so this retry cannot show it again. ` +
  'If it was lost, revoke this key with DELETE /v1/keys/{key_id} and create another.';

const needsSessionDetail = 'This needs a signed-in session: sign in with POST /v1/auth/login and call it from the same browser. An API key cannot manage keys.';
const needsIdentityDetail = 'Present your API key (Authorization: Bearer svc_…) or sign in with POST /v1/auth/login.';

/** POST/GET /v1/keys, DELETE /v1/keys/{key_id}, POST /v1/account/keys/link and POST /v1/mcp/connector. */
export function keyRoutes(options: KeyRoutesOptions): OpenAPIHono<CallerEnv> {
  const { state, meter, now } = options;
  const app = new OpenAPIHono<CallerEnv>();

  app.openapi(createKeyRoute, async (c) => {
    const accountId = sessionAccount(c);
    if (accountId === null) return c.json({ detail: needsSessionDetail }, 401);
    const outcome = await mintKey(state, { accountId, name: c.req.valid('json').name, scope: 'api', now: now() });
    if (!outcome.minted) return c.json({ detail: capDetail }, 409);
    withholdOnReplay(c, { fields: ['api_key'], reason: shownOnce('key') });
    return c.json({ ...outcome.key, api_key: outcome.apiKey }, 201);
  });

  app.openapi(listKeysRoute, async (c) => {
    const owner = keyOwner(c.get('caller'));
    if (owner === null) return c.json({ detail: needsIdentityDetail }, 401);
    return c.json({ keys: await listKeys(state, owner) }, 200);
  });

  app.openapi(revokeKeyRoute, async (c) => {
    const owner = keyOwner(c.get('caller'));
    if (owner === null) return c.json({ detail: needsIdentityDetail }, 401);
    const { key_id } = c.req.valid('param');
    const revokedAt = await revokeKey(state, key_id, owner, now());
    if (revokedAt === null) return c.json({ detail: `You hold no unrevoked key with the id ${key_id.slice(0, 80)}; GET /v1/keys lists yours.` }, 404);
    return c.json({ key_id, revoked_at: revokedAt }, 200);
  });

  app.openapi(linkKeyRoute, async (c) => {
    const accountId = sessionAccount(c);
    if (accountId === null) return c.json({ detail: needsSessionDetail }, 401);
    const outcome = await linkKey(state, c.req.valid('json').api_key, accountId, async (keyId) => await meter.moveKeyToAccount(keyId, accountId));
    if (outcome.linked) return c.json(outcome.key, 200);
    switch (outcome.reason) {
      case 'unknown':
        return c.json({ detail: 'No usable key matches: it is unknown, revoked or disabled. Check it was copied whole.' }, 404);
      case 'other-account':
        return c.json({ detail: 'This key already belongs to another account; sign in to that account to manage it.' }, 409);
      case 'cap':
        return c.json({ detail: capDetail }, 409);
    }
  });

  app.openapi(connectorRoute, async (c) => {
    const accountId = sessionAccount(c);
    if (accountId === null) return c.json({ detail: needsSessionDetail }, 401);
    const outcome = await mintKey(state, { accountId, name: 'MCP connector', scope: 'mcp', now: now() });
    if (!outcome.minted) return c.json({ detail: capDetail }, 409);
    withholdOnReplay(c, { fields: ['url'], reason: shownOnce('connector URL') });
    return c.json({ url: `${options.publicUrl}/mcp/c/${outcome.apiKey}`, key_id: outcome.key.key_id }, 201);
  });

  return app;
}
