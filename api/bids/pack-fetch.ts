import { load } from 'cheerio';
import { createHash } from 'node:crypto';
import type { StateDb } from '../../data/state/db.ts';
import { addDays, localDate, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import { SafeFetchError, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { newId } from '../../lib/tokens.ts';
import { HostGate } from '../../lib/host-gate.ts';
import { NT_QTOL } from '../../lib/nt-qtol.ts';
import { robotsRules, type RobotsRules } from '../../lib/robots.ts';
import { BID_FILE_FORMATS } from './file-reading.ts';
import { sniffDocument, type DocumentFormat } from '../documents/sniff.ts';
import type { IntakeDocument } from '../documents/types.ts';
import type { ReleaseStore } from '../release-store.ts';
import type { BidRecord } from './access.ts';
import { addBidFile, type FileIntakeDeps } from './file-intake.ts';

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
 * Each fetch is a row of `bid_pack_fetches` (migration 015) run in the API process that queued it. The job table
 * of the bid runs is meant to take these over; until then a fetch still queued or running past its time limit
 * (its process stopped) reads as failed, and the caller may queue another.
 */

export const PACK_PORTAL = { source: NT_QTOL.id, name: NT_QTOL.name, origin: NT_QTOL.origin } as const;
/** Fetches a caller may queue per Sydney day (spec, Limits). */
export const DAILY_FETCHES = 5;
const QUOTA_ZONE = 'Australia/Sydney';
/** One request to the portal: its source's time limit. */
export const PACK_FETCH_TIMEOUT_MS = NT_QTOL.timeoutSecs * 1000;
/** Longer than three requests at the source's time limit and a slow read in the pool: past it a fetch was lost. */
export const FETCH_TIME_LIMIT_MS = 10 * 60 * 1000;
const TENDER_PAGE = /^\/Tender\/Details\/(\d+)$/;
const DOWNLOAD_LINK = 'a[href*="/Tender/DownloadProfile/"]';

export interface PackFetchDeps {
  state: StateDb;
  /** The served release: the bid's tender (its source and page) is read from it. */
  store: Pick<ReleaseStore, 'state' | 'now'>;
  intake: FileIntakeDeps;
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

interface FetchRow {
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
}

export interface DailyQuota {
  limit: number;
  used: number;
  remaining: number;
  /** The next midnight in Sydney. */
  reset_at: string;
}

const view = (row: FetchRow): FetchView => ({
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
export function dailyQuota(state: StateDb, accountId: string, now: Date): DailyQuota {
  const today = localDate(now, QUOTA_ZONE);
  const start = zonedTimeToUtc(today, '00:00', QUOTA_ZONE).toISOString();
  const used = state.get<{ n: number }>('SELECT COUNT(*) AS n FROM bid_pack_fetches WHERE requested_by = ? AND requested_at >= ?', accountId, start)!.n;
  return { limit: DAILY_FETCHES, used, remaining: Math.max(0, DAILY_FETCHES - used), reset_at: zonedTimeToUtc(addDays(today, 1), '00:00', QUOTA_ZONE).toISOString() };
}

/** Ends fetches of the bid a stopped process left queued or running past the time limit. */
function endLostFetches(state: StateDb, bidId: string, now: Date): void {
  state.run(
    `UPDATE bid_pack_fetches SET state = 'failed', finished_at = ?, detail = 'The fetch was stopped before it finished (the server restarted); queue it again.'
     WHERE bid_id = ? AND state IN ('queued', 'running') AND requested_at <= ?`,
    now.toISOString(),
    bidId,
    new Date(now.getTime() - FETCH_TIME_LIMIT_MS).toISOString(),
  );
}

export function lastFetch(state: StateDb, bidId: string, now: Date): FetchView | null {
  endLostFetches(state, bidId, now);
  const row = state.get<FetchRow>('SELECT * FROM bid_pack_fetches WHERE bid_id = ? ORDER BY requested_at DESC, rowid DESC LIMIT 1', bidId);
  return row ? view(row) : null;
}

export type QueueOutcome =
  | { kind: 'queued'; fetch: FetchView; done: Promise<void> }
  | { kind: 'refused'; status: 409 | 422 | 429 | 503; detail: string; retryAfterSeconds?: number };

/** Queues one fetch for the caller (checked against the offer, a fetch already under way and the daily count) and starts it. */
export function queueFetch(deps: PackFetchDeps, bid: BidRecord, accountId: string): QueueOutcome {
  const offer = packOffer(deps, bid);
  if (!offer.available) return offer.retry ? { kind: 'refused', status: 503, detail: offer.detail, retryAfterSeconds: 30 } : { kind: 'refused', status: 422, detail: offer.detail };
  const now = deps.now();
  const queued = deps.state.transaction((): QueueOutcome | FetchRow => {
    endLostFetches(deps.state, bid.bid_id, now);
    const live = deps.state.get<FetchRow>("SELECT * FROM bid_pack_fetches WHERE bid_id = ? AND state IN ('queued', 'running')", bid.bid_id);
    if (live) return { kind: 'refused', status: 409, detail: `A fetch of this bid's tender pack is already ${live.state} (since ${live.requested_at}); GET /v1/bids/${bid.bid_id}/pack/fetch says when it ends.` };
    const quota = dailyQuota(deps.state, accountId, now);
    if (quota.remaining === 0) {
      const wait = Math.max(1, Math.ceil((Date.parse(quota.reset_at) - now.getTime()) / 1000));
      return {
        kind: 'refused',
        status: 429,
        detail: `You have fetched ${quota.used} tender packs today, the most a person may in a Sydney day; the count starts again at midnight in Sydney (${quota.reset_at}).`,
        retryAfterSeconds: wait,
      };
    }
    const row: FetchRow = {
      fetch_id: newId('fetch_'),
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
    };
    deps.state.run(
      "INSERT INTO bid_pack_fetches (fetch_id, bid_id, requested_by, source, tender_url, state, requested_at) VALUES (?, ?, ?, ?, ?, 'queued', ?)",
      row.fetch_id,
      row.bid_id,
      row.requested_by,
      row.source,
      row.tender_url,
      row.requested_at,
    );
    return row;
  });
  if ('kind' in queued) return queued;
  return { kind: 'queued', fetch: view(queued), done: runFetch(deps, queued) };
}

/** One gate per API process for the portal's host, shared by every bid's fetch: the source's spacing holds across them. */
const portalGate = new HostGate({ scale: 1 });

class FetchFailure extends Error {}

/** Runs a queued fetch to its end; never throws (a failure is recorded on the row). */
async function runFetch(deps: PackFetchDeps, row: FetchRow): Promise<void> {
  const { state } = deps;
  const finish = (outcome: 'succeeded' | 'failed', detail: string, fileIds: string[] = []) =>
    state.run(
      "UPDATE bid_pack_fetches SET state = ?, detail = ?, file_ids = ?, finished_at = ? WHERE fetch_id = ? AND state = 'running'",
      outcome,
      detail,
      JSON.stringify(fileIds),
      deps.now().toISOString(),
      row.fetch_id,
    );
  try {
    state.run("UPDATE bid_pack_fetches SET state = 'running', started_at = ? WHERE fetch_id = ? AND state = 'queued'", deps.now().toISOString(), row.fetch_id);
    const tenderPage = new URL(row.tender_url);
    const reach = (publicUrl: URL) => new URL(`${publicUrl.pathname}${publicUrl.search}`, deps.portalOrigin ?? PACK_PORTAL.origin).href;
    const sourceDelay = deps.delayMs ?? NT_QTOL.delayMs;
    let spacing = sourceDelay;
    const get = async (publicUrl: URL, what: string, anyStatus = false) => {
      await portalGate.wait(reach(publicUrl), spacing);
      try {
        return await deps.fetch(reach(publicUrl), { anyStatus });
      } catch (error) {
        throw new FetchFailure(error instanceof SafeFetchError ? `${what} could not be fetched: ${error.message}` : `${what} could not be fetched: ${String(error)}`);
      }
    };

    const robotsUrl = new URL('/robots.txt', PACK_PORTAL.origin);
    const robotsReply = await get(robotsUrl, `${PACK_PORTAL.name}'s robots.txt`, true);
    const robots: RobotsRules = robotsRules(robotsUrl.href, robotsReply.status, robotsReply.body.toString('utf8'));
    if (robots.crawlDelayMs !== null && robots.crawlDelayMs > spacing) spacing = robots.crawlDelayMs;
    const allowed = (url: URL) => {
      if (!robots.allows(url.href)) throw new FetchFailure(`${PACK_PORTAL.name}'s robots.txt does not allow fetching ${url.pathname}, so the pack was not fetched; download it from the tender page yourself.`);
    };

    allowed(tenderPage);
    const page = await get(tenderPage, 'The tender page');
    const $ = load(page.body.toString('utf8'));
    const href = $(DOWNLOAD_LINK).first().attr('href');
    if (!href) throw new FetchFailure(`The tender page (${tenderPage.href}) offers no "Download tender" link, so there is no public pack to fetch.`);
    const download = new URL(href, tenderPage);
    if (download.origin !== PACK_PORTAL.origin) throw new FetchFailure(`The tender page's download link leads off ${PACK_PORTAL.name} (${download.origin}), so it was not followed.`);
    allowed(download);
    const pack = await get(download, 'The tender pack');
    const bytes = new Uint8Array(pack.body.buffer, pack.body.byteOffset, pack.body.byteLength);
    const sniffed = await sniffDocument(bytes);
    if (sniffed.format === null || !BID_FILE_FORMATS.includes(sniffed.format)) {
      const received = sniffed.format === null ? sniffed.received : sniffed.format === 'html' ? 'a web page (a sign-in or error page?)' : sniffed.format;
      throw new FetchFailure(`The portal sent ${received} for the tender pack, which a bid file cannot be; download the documents from the tender page yourself.`);
    }
    const reference = /Tender number\s+(\S+)/.exec($('p.leader').first().text())?.[1] ?? `tender-${TENDER_PAGE.exec(tenderPage.pathname)![1]}`;
    const document: IntakeDocument = {
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      kind: sniffed.kind,
      mime: sniffed.mime,
      filename: `${reference.replace(/[^A-Za-z0-9._-]+/g, '-')}${EXTENSION[sniffed.format]}`,
    };
    const added = await addBidFile(deps.intake, { bidId: row.bid_id, accountId: row.requested_by, document, now: deps.now() });
    if (!added.ok) throw new FetchFailure(`The tender pack was fetched but not kept: ${added.detail}`);
    const read = added.file.read_status === 'read' ? `${added.file.pages_read} pages read` : `its text could not be read (${added.file.read_detail})`;
    finish('succeeded', `Fetched ${added.file.filename} from ${PACK_PORTAL.name} into the bid's files: ${read}.`, [added.file.file_id]);
  } catch (error) {
    if (!(error instanceof FetchFailure)) deps.log(`pack fetch ${row.fetch_id}: ${(error as Error).stack ?? String(error)}`);
    try {
      finish('failed', error instanceof FetchFailure ? error.message : 'The fetch failed unexpectedly; queue it again, and tell us if it keeps failing.');
    } catch (recording) {
      deps.log(`pack fetch ${row.fetch_id}: its failure could not be recorded: ${String(recording)}`);
    }
  }
}

const EXTENSION: Record<DocumentFormat, string> = { pdf: '.pdf', docx: '.docx', text: '.txt', html: '.html', png: '.png', jpeg: '.jpg', webp: '.webp', bmp: '.bmp', tiff: '.tif' };
