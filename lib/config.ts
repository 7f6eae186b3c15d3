import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where releases and state live: `--data-dir`, else `SVC_DATA_DIR`, else `data/` in the checkout. */
export function dataDir(flag?: string): string {
  return resolve(flag ?? process.env.SVC_DATA_DIR ?? resolve(REPO_ROOT, 'data'));
}

/** The API's port: `--port`, else `PORT`, else 8787. */
export function port(flag?: string): number {
  const value = Number(flag ?? process.env.PORT ?? 8787);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`port must be an integer from 0 to 65535, got ${flag ?? process.env.PORT}`);
  return value;
}

/**
 * The address people and clients reach the API at (`SVC_PUBLIC_URL`): sign-in links, connector URLs and
 * the origin cookie-authenticated writes must come from. Undefined when unset: the server then uses the
 * loopback address it listens on.
 */
export function configuredPublicUrl(): string | undefined {
  const configured = process.env.SVC_PUBLIC_URL;
  if (configured === undefined || configured === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(configured);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new Error(`SVC_PUBLIC_URL must be an http or https URL, got ${configured}`);
  return url.href.replace(/\/+$/, '');
}

/**
 * The origin the static site's canonical links, Open Graph addresses and sitemap name: the configured
 * public address, else the loopback address the server listens on by default.
 */
export function siteOrigin(): string {
  return configuredPublicUrl() ?? 'http://127.0.0.1:8787';
}

/** Burst guard numbers (`SVC_BURST_CAPACITY`, `SVC_BURST_REFILL_PER_MIN`); an unset one keeps the spec's value (10 and 30). */
export function burstLimits(): { capacity: number | undefined; refillPerMinute: number | undefined } {
  return { capacity: positiveNumber('SVC_BURST_CAPACITY'), refillPerMinute: positiveNumber('SVC_BURST_REFILL_PER_MIN') };
}

/**
 * The weekly checker caps (`SVC_WEEKLY_CAP_ANONYMOUS` per IP, `SVC_WEEKLY_CAP_IDENTIFIED` per account); an unset
 * one keeps the spec's value (20 and 100). GET /v1/pricing and /v1/usage show the caps in force.
 */
export function weeklyCaps(): { anonymous?: number; identified?: number } {
  const anonymous = positiveInteger('SVC_WEEKLY_CAP_ANONYMOUS');
  const identified = positiveInteger('SVC_WEEKLY_CAP_IDENTIFIED');
  return { ...(anonymous === undefined ? {} : { anonymous }), ...(identified === undefined ? {} : { identified }) };
}

/** The flat fee for preparing a bid (`SVC_BID_PRICE`, major units, and `SVC_BID_CURRENCY`, default AUD); absent when not on sale. */
export function bidPrice(): { amount: number; currency: string } | undefined {
  const price = process.env.SVC_BID_PRICE;
  if (price === undefined || price === '') return undefined;
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(price)) throw new Error(`SVC_BID_PRICE must be an amount such as 149 or 149.50, got ${price}`);
  const currency = process.env.SVC_BID_CURRENCY || 'AUD';
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`SVC_BID_CURRENCY must be a three-letter ISO 4217 code such as AUD, got ${currency}`);
  return { amount: Number(price), currency };
}

/**
 * The document analysis pool (`SVC_ANALYSIS_WORKERS` threads, `SVC_ANALYSIS_QUEUE` waiting jobs,
 * `SVC_ANALYSIS_TIMEOUT_SECONDS` per job, `SVC_ANALYSIS_MEMORY_MB` heap per thread); unset ones keep the
 * pool's defaults (api/checkers/_runner/pool.ts).
 */
export function analysisPoolLimits(): { size?: number; queueLimit?: number; timeoutMs?: number; memoryMb?: number } {
  const size = positiveInteger('SVC_ANALYSIS_WORKERS');
  const queueLimit = positiveInteger('SVC_ANALYSIS_QUEUE');
  const timeoutSeconds = positiveNumber('SVC_ANALYSIS_TIMEOUT_SECONDS');
  const memoryMb = positiveInteger('SVC_ANALYSIS_MEMORY_MB');
  return {
    ...(size === undefined ? {} : { size }),
    ...(queueLimit === undefined ? {} : { queueLimit }),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(memoryMb === undefined ? {} : { memoryMb }),
  };
}

/**
 * The background job workers (`SVC_JOB_LEASE_SECONDS`: how long a claim lasts unless renewed, so how soon a
 * stopped instance's jobs are taken over; `SVC_JOB_WORKERS`: jobs run at once); unset ones keep the
 * worker's defaults (api/bids/jobs/worker.ts).
 */
export function jobLimits(): { leaseMs?: number; concurrency?: number } {
  const leaseSeconds = positiveNumber('SVC_JOB_LEASE_SECONDS');
  const concurrency = positiveInteger('SVC_JOB_WORKERS');
  return {
    ...(leaseSeconds === undefined ? {} : { leaseMs: leaseSeconds * 1000 }),
    ...(concurrency === undefined ? {} : { concurrency }),
  };
}

/** True when `SVC_TRUST_PROXY` is 1 or true: client addresses come from X-Forwarded-For (only behind a proxy you run). */
export function trustProxy(): boolean {
  return ['1', 'true'].includes((process.env.SVC_TRUST_PROXY ?? '').toLowerCase());
}

/**
 * What the API's read-only DuckDB may keep (`SVC_DUCKDB_MEMORY_LIMIT`; unset: the release store's 128MB): its buffer pool holds
 * blocks of the release file it has read, by default up to 80% of the machine's memory, and never gives them
 * back while the API runs. Serving reads come mostly from the API's own indexes, so a small pool costs them
 * nothing measurable (`npm run bench` (f)) and keeps the API's memory within its goal.
 */
export function duckdbMemoryLimit(): string | undefined {
  const raw = process.env.SVC_DUCKDB_MEMORY_LIMIT;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(raw)) throw new Error(`SVC_DUCKDB_MEMORY_LIMIT must be a size such as 128MB or 1GB, got ${raw}`);
  return raw;
}

function positiveNumber(variable: string): number | undefined {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${variable} must be a positive number, got ${raw}`);
  return value;
}

function positiveInteger(variable: string): number | undefined {
  const value = positiveNumber(variable);
  if (value !== undefined && !Number.isInteger(value)) throw new Error(`${variable} must be a whole number, got ${process.env[variable]}`);
  return value;
}

/**
 * The shared state store (`DATABASE_URL`, `postgres://user:password@host:5432/database`): several API instances and
 * the nightly's digests then share one PostgreSQL; undefined keeps the embedded SQLite file in `<data dir>/state/`.
 */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/**
 * Where the bytes of bid files are kept (`SVC_FILE_STORE_URL`, `s3://bucket/prefix?endpoint=…&region=…`; checked by
 * lib/file-store/s3-store.ts); undefined keeps them in `<data dir>/state/`.
 */
export function fileStoreUrl(): string | undefined {
  return process.env.SVC_FILE_STORE_URL || undefined;
}

/** What a test-only portal setting may name: an http origin on a loopback address, with its port and nothing else. */
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|\[::1\]):(\d{1,5})$/;

/**
 * For tests only (`SVC_TEST_PACK_PORTAL_ORIGIN`): the loopback origin, exactly `http://127.0.0.1:<port>` or
 * `http://[::1]:<port>`, at which a server started as a child process reaches the tender-pack portal's recorded
 * pages, with the one address the SSRF-safe fetcher then lets through for those fetches. Unset in production, where
 * the fetch goes to the portal itself and every non-public address stays refused; any other value stops the start.
 */
export function packPortalTestOrigin(): { origin: string; address: string } | undefined {
  const raw = process.env.SVC_TEST_PACK_PORTAL_ORIGIN;
  if (raw === undefined || raw === '') return undefined;
  const matched = LOOPBACK_ORIGIN.exec(raw);
  if (!matched || Number(matched[2]) === 0 || Number(matched[2]) > 65535) {
    throw new Error(`SVC_TEST_PACK_PORTAL_ORIGIN is for tests and must be exactly http://127.0.0.1:<port> or http://[::1]:<port>, got ${raw}`);
  }
  return { origin: raw, address: matched[1]!.replace(/^\[|\]$/g, '') };
}
