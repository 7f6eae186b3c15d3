import { createApp } from '../../api/app.ts';
import { checkerAnalyses } from '../../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisLocation, type AnalysisPool, type AnalysisPoolOptions } from '../../api/checkers/_runner/pool.ts';
import { createMeter, type Meter } from '../../api/usage/meter.ts';
import { type StateDb } from '../../data/state/db.ts';
import { createSafeFetcher, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { servicesFromEnv, type Services } from '../../api/providers/index.ts';
import { openTestState } from './state.ts';

/** The public URL permalinks are made with. */
export const PUBLIC_URL = 'https://checks.example';

/** The test analyses (test-analyses.ts) by export name. */
export type TestAnalysis = 'echo' | 'hang' | 'exhaustMemory' | 'fail' | 'readThenFail' | 'endThread' | 'identity' | 'pack' | 'extraction' | 'warrant' | 'readText';

const TEST_ANALYSES = new URL('./test-analyses.ts', import.meta.url).href;
const at = (exportName: TestAnalysis): AnalysisLocation => ({ moduleUrl: TEST_ANALYSES, exportName });

/** The checkers' analysis names, each answered by a test analysis that gives a valid result. */
const VALID: Record<string, TestAnalysis> = { inspect_document: 'warrant', extract_document: 'extraction', identity_check: 'identity', check_pack: 'pack', read_text: 'readText' };

export interface CheckerAppOptions {
  /** Replace a checker's analysis (by its pool name, e.g. `identity_check`) with another test analysis. */
  analyses?: Record<string, TestAnalysis>;
  /** Checkers (by pool name) that run their real analysis (api/checkers/registry.ts). */
  real?: string[];
  pool?: Omit<AnalysisPoolOptions, 'analyses'>;
  heartbeatMs?: number;
  fetchDocument?: SafeFetcher;
  /** Outside clients, pointed at local fakes (default: none configured; news search, on by default in production, turned off). */
  services?: Services;
  /** The state store; default a fresh in-memory one. */
  state?: StateDb;
  now?: Date;
  /** Weekly caps (default the service's: 20 anonymous). */
  caps?: { anonymous?: number; identified?: number };
}

export interface CheckerApp {
  app: Awaited<ReturnType<typeof createApp>>;
  state: StateDb;
  meter: Meter;
  pool: AnalysisPool;
  close(): Promise<void>;
}

/** The whole app with no release loaded (checkers need none) and the checkers' analyses replaced by test ones. */
export async function checkerApp(options: CheckerAppOptions = {}): Promise<CheckerApp> {
  const now = options.now ?? new Date('2026-06-10T02:00:00.000Z');
  const state = options.state ?? await openTestState();
  const names = { ...VALID, ...options.analyses };
  const locations = Object.fromEntries(Object.entries(names).map(([name, analysis]) => [name, (options.real ?? []).includes(name) ? checkerAnalyses[name]! : at(analysis)]));
  const pool = createAnalysisPool({ analyses: locations, size: 2, ...options.pool });
  const meter = createMeter({ state, now: () => now, ...(options.caps ? { caps: options.caps } : {}) });
  const app = await createApp({
    publicUrl: PUBLIC_URL,
    store: { state: () => ({ ready: false, detail: 'No release in checker tests.' }), now: () => now },
    state,
    meter,
    now: () => now,
    burst: false,
    checkers: {
      pool,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      ...(options.fetchDocument ? { fetchDocument: options.fetchDocument } : {}),
      services: options.services ?? servicesFromEnv({}, createSafeFetcher()),
    },
  });
  return { app, state, meter, pool, close: () => pool.close() };
}

/** A tiny valid PDF (one empty page), with an optional comment line to make its bytes unique. */
export function tinyPdf(comment = ''): Uint8Array {
  const body = `%PDF-1.4\n%${comment}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** A JSON POST. */
export function postJson(app: CheckerApp['app'], path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> | Response {
  return app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** A multipart POST of files in `field`. */
export function postFiles(app: CheckerApp['app'], path: string, field: string, files: { bytes: Uint8Array; name: string }[], extra: Record<string, string> = {}): Promise<Response> | Response {
  const form = new FormData();
  for (const file of files) form.append(field, new File([file.bytes as Uint8Array<ArrayBuffer>], file.name));
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  return app.request(path, { method: 'POST', body: form });
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
