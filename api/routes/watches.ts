import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import { readCompanySite } from '../../data/intelligence/company-site.ts';
import { companyProfile, type CompanyProfile } from '../../data/intelligence/match.ts';
import type { StateDb } from '../../data/state/db.ts';
import { createSafeFetcher, SafeFetchError, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { WATCH_KINDS, WATCHES_PER_KIND, WatchRequest, type WatchKind } from '../../data/watches/criteria.ts';
import {
  atCap, deleteWatch, listWatches, mailDay, nextDailyDay, nextWeeklyDay, saveWatch, stopByToken, watchMailOf, weeklyStartDay, type Watch, type WatchMail,
} from '../../data/watches/store.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import type { LoadedRelease, ReleaseStore } from '../release-store.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface WatchRoutesOptions {
  state: StateDb;
  /** The served release: a new watch counts as new what appears after it, and its day is "today". */
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** The clock of records (created_at, stops). */
  now: () => Date;
  /** Reads a company watch's website when it is saved. Default: the SSRF-safe fetcher. */
  fetchSite?: SafeFetcher;
}

const SITE_READ_STATUS = { refused: 400, too_large: 413, unreachable: 502 } as const;

const sessionOnly: Record<string, string[]>[] = [{ session: [] }];
const needsSession = errorReply('No signed-in session: sign in with POST /v1/auth/login first. An API key cannot do this.');
const crossSite = errorReply('The request came from another site (a signed-in change must come from the service\'s own pages).');
const needsSessionDetail =
  'Watches email a person, so they need a signed-in session: sign in with POST /v1/auth/login and save the watch from the same browser. An API key cannot save watches.';
const capDetail = (kind: WatchKind) =>
  `You already have ${WATCHES_PER_KIND} ${kind} watches, the most of one kind a person may hold. ` +
  'Delete one with DELETE /v1/tenders/watch/{watch_id} (GET /v1/tenders/watch lists them), then save this one again.';

const NextEmailSchema = z
  .object({
    cadence: z.enum(['daily', 'weekly']),
    not_before: z.iso.date().openapi({ description: 'The earliest day (Australia/Sydney) the next email of this cadence can go, after that night\'s run.' }),
    rule: z.string().openapi({ description: 'When it is sent, in a sentence.' }),
  })
  .openapi('WatchNextEmail');

const WatchSchema = z
  .object({
    watch_id: z.string(),
    kind: z.enum(WATCH_KINDS),
    criteria: z.record(z.string(), z.unknown()).openapi({ description: 'What the watch matches, as saved.' }),
    created_at: z.iso.datetime(),
    new_after: z.iso.datetime({ offset: true }).openapi({ description: 'Items first seen after this instant are new to the watch: the release served when it was saved.' }),
    emails_stopped: z.boolean().openapi({ description: 'True when a stop link ended your watch emails; saving a watch resumes them.' }),
    next_email: NextEmailSchema,
    weekly_email: NextEmailSchema.optional().openapi({ description: 'Saved searches (kind `search`) also get a free weekly round-up of new matching tenders.' }),
  })
  .openapi('Watch');

const WatchListSchema = z
  .object({ watches: z.array(WatchSchema), per_kind: z.number().int().openapi({ description: 'How many watches of each kind a person may hold.' }) })
  .openapi('WatchList');

const WatchIdParams = z.object({ watch_id: z.string().max(100).openapi({ param: { name: 'watch_id', in: 'path' } }) });
const StopTokenParams = z.object({ token: z.string().max(200).openapi({ param: { name: 'token', in: 'path' }, description: 'The token in the email\'s stop link.' }) });
const StoppedSchema = z
  .object({ stopped: z.literal(true), already_stopped: z.boolean(), detail: z.string() })
  .openapi('WatchEmailsStopped');

const saveRoute = createRoute({
  method: 'post',
  path: '/v1/tenders/watch',
  tags: ['Tenders'],
  summary: 'Save a watch (daily email of what is new)',
  description:
    'Signed-in sessions only. Saves a search (the filters of GET /v1/tenders), a company profile (`url` or `example` as POST /v1/tenders/match), ' +
    'a buyer (`buyer_key`), a signal filter (the filters of GET /v1/signals), a grants search, or one tender (`page_key`: its closing date changing, and its closing). ' +
    `At most ${WATCHES_PER_KIND} of each kind. After each nightly run you get at most one email a day listing only what is new since your last one, ` +
    'none when nothing is new; saved searches also get a weekly round-up. Every email has a one-click stop link that needs no sign-in.',
  security: sessionOnly,
  request: { body: { required: true, content: json(WatchRequest) } },
  responses: {
    201: { description: 'The saved watch and when its email can next come.', content: json(WatchSchema) },
    400: errorReply('A criterion names something the served release does not hold (a source id, buyer key or tender key), or a company website the SSRF guard refuses; `detail` says which.'),
    401: needsSession,
    403: crossSite,
    409: errorReply(`You already hold ${WATCHES_PER_KIND} watches of this kind.`),
    413: errorReply('The company website\'s page is over 25 MB.'),
    422: errorReply('The body does not match the schema; `detail` names the field.'),
    502: errorReply('The company website could not be read (no answer or an error status); the watch was not saved.'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/watch',
  tags: ['Tenders'],
  summary: 'List your watches',
  security: sessionOnly,
  responses: { 200: { description: 'Your watches, oldest first.', content: json(WatchListSchema) }, 401: needsSession },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/v1/tenders/watch/{watch_id}',
  tags: ['Tenders'],
  summary: 'Delete a watch',
  security: sessionOnly,
  request: { params: WatchIdParams },
  responses: {
    200: { description: 'Deleted: it is in no further email and frees its place.', content: json(z.object({ watch_id: z.string(), deleted: z.literal(true) }).openapi('WatchDeleted')) },
    401: needsSession,
    403: crossSite,
    404: errorReply('You hold no watch with this id.'),
  },
});

const stopPageRoute = createRoute({
  method: 'get',
  path: '/v1/tenders/watch/stop/{token}',
  tags: ['Tenders'],
  summary: 'Stop watch emails (the link in each email)',
  description: 'One click, no sign-in: stops every watch email to the person the email went to, and shows a page saying so. Using it again changes nothing.',
  request: { params: StopTokenParams },
  responses: {
    200: { description: 'A page confirming the emails are stopped.', content: { 'text/html': { schema: z.string() } } },
    404: { description: 'No email carried this link.', content: { 'text/html': { schema: z.string() } } },
  },
});

const stopPostRoute = createRoute({
  method: 'post',
  path: '/v1/tenders/watch/stop/{token}',
  tags: ['Tenders'],
  summary: 'One-click unsubscribe (RFC 8058)',
  description: 'What mail clients call from the email\'s `List-Unsubscribe` header with body `List-Unsubscribe=One-Click`. No sign-in; any body is accepted.',
  request: { params: StopTokenParams },
  responses: {
    200: { description: 'Stopped.', content: json(StoppedSchema) },
    404: errorReply('No email carried this link.'),
  },
});

/** POST/GET /v1/tenders/watch, DELETE /v1/tenders/watch/{watch_id} and the stop link, GET and POST /v1/tenders/watch/stop/{token}. */
export function watchRoutes(options: WatchRoutesOptions): OpenAPIHono<CallerEnv> {
  const { state, store, now } = options;
  const fetchSite = options.fetchSite ?? createSafeFetcher();
  const app = new OpenAPIHono<CallerEnv>();

  // Identity is checked before the body, so someone signed out learns to sign in rather than how to fix a body.
  const signedIn: MiddlewareHandler<CallerEnv> = async (c, next) => {
    if (c.get('caller').kind !== 'session') return c.json({ detail: needsSessionDetail }, 401);
    await next();
  };
  app.use('/v1/tenders/watch', signedIn);
  app.on('DELETE', '/v1/tenders/watch/:watch_id', signedIn);

  app.openapi(saveRoute, async (c) => {
    const accountId = sessionAccount(c);
    const request = c.req.valid('json');
    const served = store.state();
    const refused = served.ready ? await unknownReference(served.release, request) : null;
    if (refused) return c.json({ detail: refused }, 400);
    // Before reading a company's site: a sixth watch would not be saved anyway.
    if (await atCap(state, accountId, request.kind)) return c.json({ detail: capDetail(request.kind) }, 409);
    let profile: CompanyProfile | null = null;
    if (request.kind === 'company' && 'url' in request.criteria) {
      // Read once, when saved: the nightly run ranks against what the site said, without reading it every night.
      try {
        const site = await readCompanySite(request.criteria.url, fetchSite);
        profile = companyProfile(site.pages.map((page) => page.text));
      } catch (error) {
        if (!(error instanceof SafeFetchError)) throw error;
        return c.json({ detail: `The company website could not be read, so the watch was not saved: ${error.message}` }, SITE_READ_STATUS[error.kind]);
      }
    }
    const newAfter = served.ready ? served.release.computedAt : now().toISOString();
    const outcome = await saveWatch(state, accountId, request, newAfter, now(), profile);
    if (!outcome.saved) return c.json({ detail: capDetail(request.kind) }, 409);
    const watches = await listWatches(state, accountId);
    return c.json(watchReply(outcome.watch, await watchMailOf(state, accountId), mailDay(store.now()), weeklyStartDay(watches)), 201);
  });

  app.openapi(listRoute, async (c) => {
    const accountId = sessionAccount(c);
    const mail = await watchMailOf(state, accountId);
    const today = mailDay(store.now());
    const watches = await listWatches(state, accountId);
    const weeklyStart = weeklyStartDay(watches);
    return c.json({ watches: watches.map((watch) => watchReply(watch, mail, today, weeklyStart)), per_kind: WATCHES_PER_KIND }, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { watch_id } = c.req.valid('param');
    if (!await deleteWatch(state, sessionAccount(c), watch_id, now())) {
      return c.json({ detail: `You hold no watch with the id ${watch_id.slice(0, 80)}; GET /v1/tenders/watch lists yours.` }, 404);
    }
    return c.json({ watch_id, deleted: true as const }, 200);
  });

  app.openapi(stopPageRoute, async (c) => {
    const outcome = await stopByToken(state, c.req.valid('param').token, now());
    if (!outcome.found) return c.html(stopPage('Link not recognised', 'This stop link was not in any email we sent. Check it was copied whole.'), 404);
    return c.html(
      stopPage(
        'Watch emails stopped',
        `${outcome.alreadyStopped ? 'Watch emails to' : 'We will send no more watch emails to'} ${outcome.email}${outcome.alreadyStopped ? ' were already stopped' : ''}. ` +
          'Your saved watches are kept; saving a watch when signed in starts the emails again.',
      ),
      200,
    );
  });

  app.openapi(stopPostRoute, async (c) => {
    const outcome = await stopByToken(state, c.req.valid('param').token, now());
    if (!outcome.found) return c.json({ detail: 'This stop link was not in any email we sent.' }, 404);
    return c.json({ stopped: true as const, already_stopped: outcome.alreadyStopped, detail: 'No more watch emails will be sent to this address.' }, 200);
  });

  return app;
}

function sessionAccount(c: Context<CallerEnv>): string {
  const caller = c.get('caller');
  if (caller.kind !== 'session') throw new Error('watch routes run behind the signed-in check');
  return caller.accountId;
}

/** A sentence naming a source id, buyer key or tender key the served release does not hold, or null. */
async function unknownReference(release: LoadedRelease, request: WatchRequest): Promise<string | null> {
  if ((request.kind === 'search' || request.kind === 'grants') && request.criteria.source !== undefined && !release.tenders.hasSource(request.criteria.source)) {
    return `Invalid body field criteria.source=${request.criteria.source}: no source has this id; GET /v1/tenders/sources lists them.`;
  }
  if (request.kind === 'tender' && release.tenders.get(request.criteria.page_key, new Date()) === null) {
    return `Invalid body field criteria.page_key=${request.criteria.page_key}: no tender has this key; GET /v1/tenders gives each tender's page_key.`;
  }
  if (request.kind === 'buyer' && !(await releaseHoldsBuyer(release, request.criteria.buyer_key))) {
    return `Invalid body field criteria.buyer_key=${request.criteria.buyer_key}: no buyer has this key; GET /v1/awards/buyers and /v1/awards/buyers/lookup give keys.`;
  }
  return null;
}

async function releaseHoldsBuyer(release: LoadedRelease, buyerKey: string): Promise<boolean> {
  const rows = await release.store.all<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM awards WHERE buyer_key = $1) OR EXISTS (SELECT 1 FROM tenders WHERE buyer_key = $1)
            OR EXISTS (SELECT 1 FROM plans WHERE buyer_key = $1) AS found`,
    [buyerKey],
  );
  return rows[0]?.found === true;
}

function watchReply(watch: Watch, mail: WatchMail | undefined, today: string, weeklyStart: string | null) {
  const daily = { cadence: 'daily' as const, not_before: nextDailyDay(mail, today), rule: 'After a nightly run, when something is new since your last email; at most one email a day.' };
  return {
    watch_id: watch.watch_id,
    kind: watch.kind,
    criteria: watch.criteria as Record<string, unknown>,
    created_at: watch.created_at,
    new_after: watch.new_after,
    emails_stopped: mail?.stopped_at != null,
    next_email: daily,
    ...(watch.kind === 'search' && weeklyStart !== null
      ? { weekly_email: { cadence: 'weekly' as const, not_before: nextWeeklyDay(mail, today, weeklyStart), rule: 'A week after the last round-up (the first a week after your first saved search), when the week brought new matching tenders.' } }
      : {}),
  };
}

function stopPage(title: string, message: string) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${message}</p></main></body></html>`;
}
