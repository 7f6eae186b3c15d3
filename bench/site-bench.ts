import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroUserConfig } from 'astro';
import { Manifest, pointCurrentAt, releasesDir } from '../data/release.ts';
import { SCHEMA_VERSION } from '../data/schema.ts';
import { openStore } from '../data/store.ts';
import { buildSite } from '../pipeline/site-build.ts';
import { writeSiteJson } from '../pipeline/site-json.ts';
import type { SyntheticScale } from './generate.ts';
import { runPipelineOnce } from './pipeline-bench.ts';

const PROJECT_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SYNTHETIC_CLOCK = '2026-09-25T01:00:00.000Z';

export interface PublishedRelease {
  dataDir: string;
  releaseDir: string;
  manifest: Manifest;
}

/** Seeded synthetic data at `scale`, loaded and modelled by the pipeline's code, published as the current release. */
export async function publishSyntheticRelease(workDir: string, scale: SyntheticScale): Promise<PublishedRelease> {
  const pipeline = await runPipelineOnce(join(workDir, 'pipeline'), scale);
  const dataDir = join(workDir, 'data');
  await rm(dataDir, { recursive: true, force: true });
  const releaseId = 'synthetic';
  const releaseDir = join(releasesDir(dataDir), releaseId);
  await mkdir(releaseDir, { recursive: true });
  await rename(join(workDir, 'pipeline', 'ours', 'store.duckdb'), join(releaseDir, 'store.duckdb'));
  await rm(join(workDir, 'pipeline'), { recursive: true, force: true });
  const manifest = Manifest.parse({
    release_id: releaseId, computed_at: SYNTHETIC_CLOCK, clock: { now: SYNTHETIC_CLOCK, pinned: true, basis: 'synthetic data' },
    started_at: SYNTHETIC_CLOCK, finished_at: SYNTHETIC_CLOCK, schema_version: SCHEMA_VERSION, mode: 'synthetic', sources: [],
    counts: pipeline.rows, stage_timings_ms: pipeline.stageMs,
  });
  await writeFile(join(releaseDir, 'manifest.json'), JSON.stringify(manifest));
  await pointCurrentAt(dataDir, manifest, new Date());
  return { dataDir, releaseDir, manifest };
}

/** Writes a release's site JSON as the nightly run's export stage does; returns milliseconds taken. */
export async function writeReleaseSiteJson(release: { releaseDir: string; manifest: Manifest }): Promise<number> {
  const started = performance.now();
  const store = await openStore(join(release.releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    await writeSiteJson(store, join(release.releaseDir, 'site-json'), { computedAt: release.manifest.computed_at, now: new Date(release.manifest.clock.now) });
  } finally {
    store.close();
  }
  return Math.round(performance.now() - started);
}

export interface SiteBenchResult {
  siteJsonMs: number;
  pages: number;
  astroMs: number;
  /** CPU milliseconds of our build's processes, and of the bare build's. */
  astroCpuMs: number;
  pagefindMs: number;
  /** A bare Astro build of the same number of pages (one trivial page template), in the same run. */
  barePages: number;
  bareMs: number;
  bareCpuMs: number;
  /** The largest page's HTML, and the largest page with its stylesheets. */
  largest: { html: PageSize; withCss: PageSize };
}

export interface PageSize {
  /** The page's address (`/trades/`). */
  path: string;
  bytes: number;
}

/**
 * The site at production scale: site JSON for every page, the Astro build of every page (a page per tender,
 * state × trade pair and listed buyer among them) with the JSON twins and the sitemap, and the Pagefind
 * index; against a bare Astro build of as many trivial pages.
 */
export async function benchSite(release: PublishedRelease): Promise<SiteBenchResult> {
  const siteJsonMs = await writeReleaseSiteJson(release);
  const siteDir = join(release.releaseDir, 'site');
  await rm(siteDir, { recursive: true, force: true });
  const ours = await buildSite({ siteJsonDir: join(release.releaseDir, 'site-json'), outDir: siteDir });
  const bare = await bareAstroBuild(ours.pages);
  return { siteJsonMs, pages: ours.pages, astroMs: ours.astroMs, astroCpuMs: ours.astroCpuMs, pagefindMs: ours.pagefindMs, barePages: bare.pages, bareMs: bare.ms, bareCpuMs: bare.cpuMs, largest: await largestPages(siteDir) };
}

/** A bare Astro project (one template, `count` static pages, no data) built by the same Astro in a child process. */
async function bareAstroBuild(count: number): Promise<{ pages: number; ms: number; cpuMs: number }> {
  const scratchRoot = join(PROJECT_ROOT, '.astro', 'site-builds');
  await mkdir(scratchRoot, { recursive: true });
  const root = await mkdtemp(join(scratchRoot, 'bare-'));
  const { default: siteConfig } = await import(join(PROJECT_ROOT, 'astro.config.mjs')) as { default: AstroUserConfig };
  try {
    await mkdir(join(root, 'src', 'pages'), { recursive: true });
    await writeFile(join(root, 'src', 'pages', '[id].astro'), `---
export function getStaticPaths() { return Array.from({ length: ${count} }, (_, i) => ({ params: { id: String(i) } })); }
const { id } = Astro.params;
---
<html lang="en"><head><title>Page {id}</title></head><body><h1>Page {id}</h1></body></html>
`);
    await writeFile(join(root, 'build.mjs'), `
import { build } from 'astro';
const started = performance.now();
await build({ root: ${JSON.stringify(root)}, configFile: false, outDir: ${JSON.stringify(join(root, 'dist'))}, cacheDir: ${JSON.stringify(join(root, 'cache'))}, logLevel: 'warn',
  // The same settings as astro.config.mjs (static output, directory format, as many pages rendered at once, the
  // cookie bundling workaround): the two builds differ by their pages alone.
  output: 'static', trailingSlash: 'always', build: { format: 'directory', concurrency: ${siteConfig.build?.concurrency ?? 1} }, compressHTML: true, devToolbar: { enabled: false },
  vite: { environments: { prerender: { resolve: { noExternal: ['cookie'] } } } } });
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ms: Math.round(performance.now() - started), cpuMs: Math.round((cpu.user + cpu.system) / 1000) }) + '\\n');
`);
    const { spawnSync } = await import('node:child_process');
    const child = spawnSync(process.execPath, [join(root, 'build.mjs')], { cwd: root, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bare astro build failed: ${child.stderr}`);
    const { ms, cpuMs } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ms: number; cpuMs: number };
    const pages = (await readdir(join(root, 'dist'), { recursive: true })).filter((f) => f.endsWith('.html')).length;
    return { pages, ms, cpuMs };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The largest page's HTML alone, and the largest with its stylesheets, in bytes, and which pages they are. */
async function largestPages(siteDir: string): Promise<{ html: PageSize; withCss: PageSize }> {
  let html: PageSize = { path: '', bytes: 0 };
  let withCss: PageSize = { path: '', bytes: 0 };
  const cssBytes = new Map<string, number>();
  for (const file of (await readdir(siteDir, { recursive: true })).filter((f) => f.endsWith('.html') && !f.startsWith('pagefind/'))) {
    const text = await readFile(join(siteDir, file), 'utf8');
    const path = `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
    let bytes = Buffer.byteLength(text);
    if (bytes > html.bytes) html = { path, bytes };
    for (const [, href] of text.matchAll(/<link[^>]+rel="?stylesheet"?[^>]*href="?([^" >]+)/g)) {
      if (!cssBytes.has(href!)) cssBytes.set(href!, (await stat(join(siteDir, href!))).size);
      bytes += cssBytes.get(href!)!;
    }
    if (bytes > withCss.bytes) withCss = { path, bytes };
  }
  return { html, withCss };
}
