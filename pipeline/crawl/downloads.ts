import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { NonRetryableError } from '@crawlee/cheerio';
import type { HttpValidator } from '../../data/build.ts';
import type { HostGate } from '../../lib/host-gate.ts';
import type { Download, Politeness, SourceContext, SourceDefinition } from '../../sources/_contract/define-source.ts';
import { describeFailure, retryAfterMs, sleep, USER_AGENT } from './http.ts';
import type { QueuedRequest } from './request-meta.ts';

/** A download that failed for good; its message is the registry's one-line diagnosis, naming the file. */
export class DownloadError extends NonRetryableError {}

interface DownloadFetch {
  download: Download;
  /** Requests whose files answered 304 earlier tonight and must now be fetched whole, because this one changed. */
  refetch: QueuedRequest[];
}

export interface SnapshotDownloadOptions {
  source: SourceDefinition;
  /** Validators the last release remembered for this source's downloads. */
  validators?: HttpValidator[];
  /** The run's work folder; downloads go to `downloads/<source>/` under it (a temporary folder when unset). */
  workDir?: string;
  politeness: Politeness;
  gate: HostGate;
  ctx: SourceContext;
}

export type SnapshotDownloads = ReturnType<typeof snapshotDownloads>;

/**
 * The downloads of one source's crawl: where their files go, the validators they send and remember, and the
 * rule that keeps a snapshot whole. A snapshot source's files are asked for conditionally; when one of them
 * changed and another answered 304, the unchanged one is fetched again whole, since the source's rows are
 * replaced from tonight's files alone.
 */
export function snapshotDownloads(options: SnapshotDownloadOptions) {
  const { source, politeness, gate, ctx } = options;
  const conditional = source.refresh === 'snapshot';
  const previous = new Map((options.validators ?? []).map((v) => [v.url, v]));
  const remembered = new Map<string, HttpValidator>();
  let dir: string | null = null;
  let count = 0;
  let changed = false;
  let notModified: { request: QueuedRequest; since: Date }[] = [];

  const folder = async () => {
    if (!dir) {
      dir = options.workDir ? join(options.workDir, 'downloads', source.id) : await mkdtemp(join(tmpdir(), `downloads-${source.id}-`));
      await mkdir(dir, { recursive: true });
    }
    return dir;
  };

  return {
    async fetch(url: string, request: QueuedRequest, validators: HttpValidator[]): Promise<DownloadFetch> {
      const publicUrl = ctx.publicUrl(url);
      const sent = conditional && !request.userData.crawl.unconditional ? (previous.get(publicUrl) ?? null) : null;
      const path = join(await folder(), `${++count}-${basename(new URL(publicUrl).pathname) || 'download'}`);
      const get = (validator: HttpValidator | null) => downloadToFile({ url, publicUrl, path, validator, politeness, gate });
      let answer = await get(sent);
      // Another file of this snapshot changed tonight, so this one is needed whole too.
      if (answer.status === 'not_modified' && changed) answer = await get(null);
      if (answer.status === 'not_modified') {
        if (!sent) throw new DownloadError(`HTTP 304 to a request that sent no validator, from GET ${publicUrl}`);
        validators.push({ ...sent, etag: answer.etag ?? sent.etag });
        const since = answer.lastModified ?? (sent.last_modified ? new Date(sent.last_modified) : new Date(sent.fetched_at));
        notModified.push({ request, since });
        return { download: { status: 'not_modified', lastModified: since }, refetch: [] };
      }
      validators.push({ url: publicUrl, etag: answer.etag, last_modified: answer.lastModifiedHeader, fetched_at: ctx.now.toISOString() });
      const refetch = conditional && !changed ? notModified.map((n) => n.request) : [];
      changed = true;
      notModified = [];
      return { download: { status: 'fetched', path, bytes: answer.bytes, lastModified: answer.lastModified }, refetch };
    },
    remember(validators: HttpValidator[]) {
      for (const validator of validators) remembered.set(validator.url, validator);
    },
    validators: () => [...remembered.values()],
    /** The newest Last-Modified when every download answered 304; null when anything was fetched. */
    notModifiedSince(): Date | null {
      if (changed || notModified.length === 0) return null;
      return new Date(Math.max(...notModified.map((n) => n.since.getTime())));
    },
    async cleanUp() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

type DownloadAnswer =
  | { status: 'fetched'; bytes: number; etag: string | null; lastModifiedHeader: string | null; lastModified: Date | null }
  | { status: 'not_modified'; etag: string | null; lastModified: Date | null };

/**
 * Streams one file to `path` with the crawler's manners: the User-Agent, the per-host gate, retries with
 * backoff on 429, 5xx and dropped connections (honouring Retry-After), and `timeoutSecs` as the longest
 * silence, so a slow but steady 400 MB download is never cut off while a stalled one is.
 */
async function downloadToFile(options: { url: string; publicUrl: string; path: string; validator: HttpValidator | null; politeness: Politeness; gate: HostGate }): Promise<DownloadAnswer> {
  const { url, publicUrl, path, validator, politeness, gate } = options;
  const headers: Record<string, string> = { 'user-agent': USER_AGENT };
  if (validator?.etag) headers['if-none-match'] = validator.etag;
  if (validator?.last_modified) headers['if-modified-since'] = validator.last_modified;
  for (let attempt = 1; ; attempt++) {
    await gate.wait(url, politeness.delayMs);
    const controller = new AbortController();
    const silence = setTimeout(() => controller.abort(new Error(`no answer within ${politeness.timeoutSecs} s`)), politeness.timeoutSecs * 1000);
    let retryAfter: number | null = null;
    try {
      const response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
      const lastModifiedHeader = response.headers.get('last-modified');
      const lastModified = lastModifiedHeader && !Number.isNaN(Date.parse(lastModifiedHeader)) ? new Date(lastModifiedHeader) : null;
      if (response.status === 304) {
        await response.body?.cancel();
        return { status: 'not_modified', etag: response.headers.get('etag'), lastModified };
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        retryAfter = retryAfterMs(response.headers.get('retry-after') ?? undefined);
        const retryable = response.status === 429 || response.status >= 500;
        throw Object.assign(new Error(`HTTP ${response.status}`), { retryable });
      }
      let bytes = 0;
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            silence.refresh();
            bytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(path),
      );
      return { status: 'fetched', bytes, etag: response.headers.get('etag'), lastModifiedHeader, lastModified };
    } catch (error) {
      const failure = controller.signal.aborted ? (controller.signal.reason as Error) : (error as Error & { retryable?: boolean });
      const retryable = (failure as { retryable?: boolean }).retryable ?? true;
      if (!retryable || attempt > politeness.maxRetries) {
        throw new DownloadError(`${describeFailure(failure, politeness.timeoutSecs)} from GET ${publicUrl} after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
      }
      await sleep(gate.backoffMs(attempt, retryAfter));
    } finally {
      clearTimeout(silence);
    }
  }
}
