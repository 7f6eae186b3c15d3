import { load } from 'cheerio';
import { createHash } from 'node:crypto';
import type { StateDb } from '../../data/state/db.ts';
import { HostGate } from '../../lib/host-gate.ts';
import { NT_QTOL } from '../../lib/nt-qtol.ts';
import { robotsRules } from '../../lib/robots.ts';
import { SafeFetchError } from '../../lib/safe-fetch.ts';
import { sniffDocument, type DocumentFormat } from '../documents/sniff.ts';
import { addBidFile } from './file-intake.ts';
import { BID_FILE_FORMATS } from './file-reading.ts';
import { requeueWaitingJob, type JobRow } from './jobs/store.ts';
import { FinalJobError, type JobChange, type JobContext, type JobHandler } from './jobs/worker.ts';
import { PACK_PORTAL, TENDER_PAGE, type FetchRow, type PackFetchDeps, type PackFetchJobInput } from './pack-fetch.ts';

/**
 * A tender-pack fetch as a job of recorded steps (jobs/worker.ts): robots.txt, the tender page, the pack's bytes
 * (kept in the bid file store by SHA-256 as the step completes), then the pack joining the bid's files. A fetch
 * taken over after its process stopped resumes after its last completed step, so nothing fetched is fetched
 * again; only a request cut off mid-way is repeated. The source's spacing is waited before each step's request
 * and outside it, so a stop or a lost lease ends the fetch before the next request leaves. A refusal
 * (robots.txt, no download link, the wrong kind of file) ends the fetch failed at once; the portal unreachable
 * is tried again after a back-off. The fetch row mirrors the job's state in the job's own transactions.
 */

/** One gate per API process for the portal's host, shared by every bid's fetch: the source's spacing holds across them. */
const portalGate = new HostGate({ scale: 1 });
const DOWNLOAD_LINK = 'a[href*="/Tender/DownloadProfile/"]';
const EXTENSION: Record<DocumentFormat, string> = { pdf: '.pdf', docx: '.docx', text: '.txt', html: '.html', png: '.png', jpeg: '.jpg', webp: '.webp', bmp: '.bmp', tiff: '.tif' };

interface FetchOutcome {
  detail: string;
  file_ids: string[];
}

export function packFetchHandler(deps: PackFetchDeps): JobHandler {
  return {
    run: async (ctx) => await fetchPack(deps, ctx),
    changed: async (job, change) => await mirrorFetch(deps, job, change),
  };
}

async function fetchRowOf(state: StateDb, job: JobRow): Promise<FetchRow> {
  const { fetch_id: fetchId } = JSON.parse(job.input) as PackFetchJobInput;
  const row = await state.get<FetchRow>('SELECT * FROM bid_pack_fetches WHERE fetch_id = ?', fetchId);
  if (!row) throw new FinalJobError(`The fetch ${fetchId} is gone.`);
  return row;
}

async function fetchPack(deps: PackFetchDeps, ctx: JobContext): Promise<FetchOutcome> {
  const row = await fetchRowOf(deps.state, ctx.job);
  const tenderPage = new URL(row.tender_url);
  const reach = (publicUrl: URL) => new URL(`${publicUrl.pathname}${publicUrl.search}`, deps.portalOrigin ?? PACK_PORTAL.origin).href;
  let spacing = deps.delayMs ?? NT_QTOL.delayMs;
  const get = async (publicUrl: URL, what: string, anyStatus = false) => {
    try {
      return await deps.fetch(reach(publicUrl), { anyStatus });
    } catch (error) {
      const sentence = `${what} could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
      // Unreachable (no answer, an error status) may mend; a refused or oversized answer will not.
      throw error instanceof SafeFetchError && error.kind !== 'unreachable' ? new FinalJobError(sentence) : new Error(sentence);
    }
  };
  /** Waits the source's spacing, then runs the request as step `key` (skipped, its result read back, once completed). */
  const politely = async <T>(key: string, url: URL, work: () => Promise<T>): Promise<T> => {
    if ((await ctx.recorded<T>(key)) === undefined) await portalGate.wait(reach(url), spacing);
    return await ctx.step(key, work);
  };
  await ctx.setTotal(4);

  const robotsUrl = new URL('/robots.txt', PACK_PORTAL.origin);
  const robotsReply = await politely('robots', robotsUrl, async () => {
    const reply = await get(robotsUrl, `${PACK_PORTAL.name}'s robots.txt`, true);
    return { status: reply.status, body: reply.body.toString('utf8') };
  });
  const robots = robotsRules(robotsUrl.href, robotsReply.status, robotsReply.body);
  if (robots.crawlDelayMs !== null && robots.crawlDelayMs > spacing) spacing = robots.crawlDelayMs;
  const allowed = (url: URL) => {
    if (!robots.allows(url.href)) throw new FinalJobError(`${PACK_PORTAL.name}'s robots.txt does not allow fetching ${url.pathname}, so the pack was not fetched; download it from the tender page yourself.`);
  };

  allowed(tenderPage);
  const page = await politely('tender_page', tenderPage, async () => {
    const $ = load((await get(tenderPage, 'The tender page')).body.toString('utf8'));
    return { href: $(DOWNLOAD_LINK).first().attr('href') ?? null, reference: /Tender number\s+(\S+)/.exec($('p.leader').first().text())?.[1] ?? null };
  });
  if (!page.href) throw new FinalJobError(`The tender page (${tenderPage.href}) offers no "Download tender" link, so there is no public pack to fetch.`);
  const download = new URL(page.href, tenderPage);
  if (download.origin !== PACK_PORTAL.origin) throw new FinalJobError(`The tender page's download link leads off ${PACK_PORTAL.name} (${download.origin}), so it was not followed.`);
  allowed(download);

  const pack = await politely('download', download, async () => {
    const body = (await get(download, 'The tender pack')).body;
    const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    const sniffed = await sniffDocument(bytes);
    if (sniffed.format === null || !BID_FILE_FORMATS.includes(sniffed.format)) {
      const received = sniffed.format === null ? sniffed.received : sniffed.format === 'html' ? 'a web page (a sign-in or error page?)' : sniffed.format;
      throw new FinalJobError(`The portal sent ${received} for the tender pack, which a bid file cannot be; download the documents from the tender page yourself.`);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // Kept before the step completes, so a resumed fetch reads the bytes back instead of asking the portal again.
    await deps.intake.files.put(sha256, bytes);
    return { sha256, kind: sniffed.kind, mime: sniffed.mime, format: sniffed.format };
  });

  return await ctx.step('add_file', async (): Promise<FetchOutcome> => {
    const reference = page.reference ?? `tender-${TENDER_PAGE.exec(tenderPage.pathname)![1]}`;
    const document = {
      bytes: await deps.intake.files.read(pack.sha256),
      sha256: pack.sha256,
      kind: pack.kind,
      mime: pack.mime,
      filename: `${reference.replace(/[^A-Za-z0-9._-]+/g, '-')}${EXTENSION[pack.format]}`,
    };
    const added = await addBidFile(deps.intake, { bidId: row.bid_id, accountId: row.requested_by, document, now: deps.now() });
    if (!added.ok) throw new FinalJobError(`The tender pack was fetched but not kept: ${added.detail}`);
    const read = added.file.read_status === 'read' ? `${added.file.pages_read} pages read` : `its text could not be read (${added.file.read_detail})`;
    return { detail: `Fetched ${added.file.filename} from ${PACK_PORTAL.name} into the bid's files: ${read}.`, file_ids: [added.file.file_id] };
  });
}

/** Keeps the fetch row in step with its job, and queues the job waiting on it (a run) once the fetch ends. */
async function mirrorFetch(deps: PackFetchDeps, job: JobRow, change: JobChange): Promise<void> {
  const { state } = deps;
  const row = await fetchRowOf(state, job);
  const at = deps.now().toISOString();
  const end = async (outcome: 'succeeded' | 'failed', detail: string, fileIds: string[] = []) => {
    await state.run("UPDATE bid_pack_fetches SET state = ?, detail = ?, file_ids = ?, finished_at = ? WHERE fetch_id = ?", outcome, detail, JSON.stringify(fileIds), at, row.fetch_id);
    const { resume_job: resumeJob } = JSON.parse(job.input) as PackFetchJobInput;
    if (resumeJob) await requeueWaitingJob(state, resumeJob, deps.jobs.runAfterNow(), deps.now());
  };
  switch (change.to) {
    case 'running':
      await state.run("UPDATE bid_pack_fetches SET state = 'running', started_at = COALESCE(started_at, ?) WHERE fetch_id = ?", at, row.fetch_id);
      return;
    case 'queued':
      await state.run(
        "UPDATE bid_pack_fetches SET state = 'queued', detail = ? WHERE fetch_id = ?",
        change.reason === 'retry' ? `Attempt ${change.attempt} failed (${change.error}); it is tried again at ${change.runAfter}.` : row.detail,
        row.fetch_id,
      );
      return;
    case 'succeeded': {
      const outcome = change.result as FetchOutcome;
      await end('succeeded', outcome.detail, outcome.file_ids);
      return;
    }
    case 'failed':
      await end('failed', change.error);
      return;
    case 'stopped':
      await end('failed', 'The fetch was stopped before it finished; queue it again.');
      return;
    case 'waiting':
      return;
  }
}
