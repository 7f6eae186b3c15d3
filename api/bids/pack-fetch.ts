import type { StateDb } from '../../data/state/db.ts';
import { addDays, localDate, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import type { SafeFetcher } from '../../lib/safe-fetch.ts';
import { newId } from '../../lib/tokens.ts';
import { NT_QTOL } from '../../lib/nt-qtol.ts';
import type { ReleaseStore } from '../release-store.ts';
import type { BidRecord } from './access.ts';
import type { FileIntakeDeps } from './file-intake.ts';
import type { NewJob } from './jobs/store.ts';

/**
 * The tender-pack fetch (spec, States: Bid document fetch): a bid for a tender of the one supported portal asks
 * for the tender's documents, and they are fetched at once in the background into the bid's files, read like an
 * upload.
 *
 * The portal is NT Quotations and Tenders Online (`au_nt_qtol`): of the sources, it is the one whose public tender
 * page links the tender's documents without a sign-in ("Download tender", `/Tender/DownloadProfile/{id}`, on the
 * real capture of `/Tender/Details/26396` a plain HTTP client fetched); every other source's documents need a
 * login (ACT, SA, Victoria, GETS, VendorPanel and QTenders, GrantConnect, Tenderlink) or its robots.txt refuses us
 * (WA). The fetch keeps the source's manners: its robots.txt (read through the SSRF-safe fetcher; a Crawl-delay
 * longer than the source's spacing wins) and its spacing between requests to the host, one at a time.
 *
 * Each fetch is a row of `bid_pack_fetches` (migration 015) and a job of the job table (`pack_fetch`, migration
 * 018): queued in one transaction and claimed at once by the API process's worker, it runs as recorded steps
 * (pack-fetch-job.ts), so a fetch whose process stopped is taken over by the next worker or POST /v1/jobs/drain and
 * resumes after its last completed step, fetching nothing twice.
 */

export const PACK_PORTAL = { source: NT_QTOL.id, name: NT_QTOL.name, origin: NT_QTOL.origin } as const;
/** Fetches a caller may queue per Sydney day (spec, Limits). */
export const DAILY_FETCHES = 5;
const QUOTA_ZONE = 'Australia/Sydney';
/** One request to the portal: its source's time limit. */
export const PACK_FETCH_TIMEOUT_MS = NT_QTOL.timeoutSecs * 1000;
export const TENDER_PAGE = /^\/Tender\/Details\/(\d+)$/;
export const PACK_FETCH_JOB_KIND = 'pack_fetch';
/** Attempts of a fetch job: the portal unreachable or erring is tried again after a back-off. */
const FETCH_ATTEMPTS = 3;

/** Where fetch jobs are queued: the API process's job worker. */
export interface PackFetchQueue {
  enqueue(job: Omit<NewJob, 'runAfter'>): Promise<string>;
  /** Claims what was queued, once the enqueuing transaction committed. */
  kick(): Promise<void>;
  /** The worker clock's instant now (ISO): a waiting job requeued is claimable from it. */
  runAfterNow(): string;
}

/** What a fetch job reads: its fetch, and the job (a run) waiting on it, queued again when the fetch ends. */
export interface PackFetchJobInput {
  fetch_id: string;
  resume_job: string | null;
}

export interface PackFetchDeps {
  state: StateDb;
  /** The served release: the bid's tender (its source and page) is read from it. */
  store: Pick<ReleaseStore, 'state' | 'now'>;
  intake: FileIntakeDeps;
  jobs: PackFetchQueue;
  /** The SSRF-safe fetcher (lib/safe-fetch.ts). */
  fetch: SafeFetcher;
  /** Where the portal is reached (default its own origin; tests give a loopback server with the recorded pages). */
  portalOrigin?: string;
  /** Least time between two requests to the portal (default the source's politeness, 3 s). */
  delayMs?: number;
  now: () => Date;
  log: (line: string) => void;
}

export type PackOffer =
  | { available: true; source: string; portal: string; tender_url: string; detail: string }
  | { available: false; source: string | null; portal: string; tender_url: null; detail: string; retry?: true };

export interface FetchView {
  fetch_id: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  detail: string | null;
  file_ids: string[];
  tender_url: string;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface FetchRow {
  fetch_id: string;
  bid_id: string;
  requested_by: string;
  source: string;
  tender_url: string;
  state: FetchView['state'];
  detail: string | null;
  file_ids: string;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  job_id: string | null;
}

export interface DailyQuota {
  limit: number;
  used: number;
  remaining: number;
  /** The next midnight in Sydney. */
  reset_at: string;
}

export const view = (row: FetchRow): FetchView => ({
  fetch_id: row.fetch_id,
  state: row.state,
  detail: row.detail,
  file_ids: JSON.parse(row.file_ids) as string[],
  tender_url: row.tender_url,
  requested_at: row.requested_at,
  started_at: row.started_at,
  finished_at: row.finished_at,
});

/** Whether this bid's tender pack can be fetched: a tender of the portal, in the served release, with a tender page. */
export function packOffer(deps: Pick<PackFetchDeps, 'store'>, bid: BidRecord): PackOffer {
  const none = (detail: string, source: string | null = null) => ({ available: false as const, source, portal: PACK_PORTAL.name, tender_url: null, detail });
  if (bid.tender_key === null) return none(`This bid is on a free title, not a tender of ${PACK_PORTAL.name}, so there is no tender pack to fetch; upload the documents instead.`);
  const served = deps.store.state();
  if (!served.ready) return { ...none(`${served.detail} The bid's tender cannot be looked up yet; try again shortly.`), retry: true };
  const hit = served.release.tenders.get(bid.tender_key, deps.store.now());
  if (!hit) return none('The bid\'s tender is no longer in the served release, so its pack cannot be found; upload the documents instead.');
  const { source, url } = hit.tender.row;
  if (source !== PACK_PORTAL.source) {
    return none(`Tender packs are fetched only from ${PACK_PORTAL.name}, whose tender documents are public; this tender's portal (${source}) needs a sign-in for its documents, so upload them instead.`, source);
  }
  const page = url && URL.canParse(url) ? new URL(url) : null;
  if (!page || page.origin !== PACK_PORTAL.origin || !TENDER_PAGE.test(page.pathname)) return none(`The tender's address (${url ?? 'none'}) is not a ${PACK_PORTAL.name} tender page.`, source);
  return { available: true, source, portal: PACK_PORTAL.name, tender_url: page.href, detail: `The tender's documents can be fetched from ${PACK_PORTAL.name} into this bid's files.` };
}

/** The offer as the API shows it (without the internal retry mark). */
export function offerView(offer: PackOffer): { available: boolean; portal: string; source: string | null; tender_url: string | null; detail: string } {
  return { available: offer.available, portal: offer.portal, source: offer.source, tender_url: offer.tender_url, detail: offer.detail };
}

/** The caller's fetches today (Sydney's day) and when the count starts again. */
export async function dailyQuota(state: StateDb, accountId: string, now: Date): Promise<DailyQuota> {
  const today = localDate(now, QUOTA_ZONE);
  const start = zonedTimeToUtc(today, '00:00', QUOTA_ZONE).toISOString();
  const used = (await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM bid_pack_fetches WHERE requested_by = ? AND requested_at >= ?', accountId, start))!.n;
  return { limit: DAILY_FETCHES, used, remaining: Math.max(0, DAILY_FETCHES - used), reset_at: zonedTimeToUtc(addDays(today, 1), '00:00', QUOTA_ZONE).toISOString() };
}

export async function lastFetch(state: StateDb, bidId: string): Promise<FetchView | null> {
  const row = await state.get<FetchRow>('SELECT * FROM bid_pack_fetches WHERE bid_id = ? ORDER BY requested_at DESC, rowid DESC LIMIT 1', bidId);
  return row ? view(row) : null;
}

export type QueueOutcome =
  | { kind: 'queued'; fetch: FetchView; jobId: string }
  | { kind: 'refused'; status: 409 | 422 | 429 | 503; detail: string; retryAfterSeconds?: number };

/**
 * Queues one fetch for the caller (checked against the offer, a fetch already under way and the daily count) as
 * a job, and starts it. `resumeJob`: a job waiting on this fetch (a run), queued again when the fetch ends.
 */
export async function queueFetch(deps: PackFetchDeps, bid: BidRecord, accountId: string, resumeJob: string | null = null): Promise<QueueOutcome> {
  const offer = packOffer(deps, bid);
  if (!offer.available) return offer.retry ? { kind: 'refused', status: 503, detail: offer.detail, retryAfterSeconds: 30 } : { kind: 'refused', status: 422, detail: offer.detail };
  const now = deps.now();
  const queued = await deps.state.transaction(async (): Promise<QueueOutcome | FetchRow> => {
    const live = await deps.state.get<FetchRow>("SELECT * FROM bid_pack_fetches WHERE bid_id = ? AND state IN ('queued', 'running')", bid.bid_id);
    if (live) return { kind: 'refused', status: 409, detail: `A fetch of this bid's tender pack is already ${live.state} (since ${live.requested_at}); GET /v1/bids/${bid.bid_id}/pack/fetch says when it ends.` };
    const quota = await dailyQuota(deps.state, accountId, now);
    if (quota.remaining === 0) {
      const wait = Math.max(1, Math.ceil((Date.parse(quota.reset_at) - now.getTime()) / 1000));
      return {
        kind: 'refused',
        status: 429,
        detail: `You have fetched ${quota.used} tender packs today, the most a person may in a Sydney day; the count starts again at midnight in Sydney (${quota.reset_at}).`,
        retryAfterSeconds: wait,
      };
    }
    const fetchId = newId('fetch_');
    const input: PackFetchJobInput = { fetch_id: fetchId, resume_job: resumeJob };
    const jobId = await deps.jobs.enqueue({ kind: PACK_FETCH_JOB_KIND, bidId: bid.bid_id, input, maxAttempts: FETCH_ATTEMPTS, now });
    const row: FetchRow = {
      fetch_id: fetchId,
      bid_id: bid.bid_id,
      requested_by: accountId,
      source: offer.source,
      tender_url: offer.tender_url,
      state: 'queued',
      detail: null,
      file_ids: '[]',
      requested_at: now.toISOString(),
      started_at: null,
      finished_at: null,
      job_id: jobId,
    };
    await deps.state.run(
      "INSERT INTO bid_pack_fetches (fetch_id, bid_id, requested_by, source, tender_url, state, requested_at, job_id) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)",
      row.fetch_id,
      row.bid_id,
      row.requested_by,
      row.source,
      row.tender_url,
      row.requested_at,
      row.job_id,
    );
    return row;
  });
  if ('kind' in queued) return queued;
  await deps.jobs.kick();
  return { kind: 'queued', fetch: view(queued), jobId: queued.job_id! };
}
