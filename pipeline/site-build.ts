import { spawn } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, renameSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AstroIntegration } from 'astro';
import { z } from 'zod';
import { siteOrigin } from '../lib/config.ts';

/** The checkout holding astro.config.mjs and site/. */
const PROJECT_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Per-build working folders (git-ignored with the rest of `.astro/`). */
const SCRATCH_ROOT = join(PROJECT_ROOT, '.astro', 'site-builds');

export interface SiteBuildResult {
  /** HTML pages written (JSON twins and search files aside). */
  pages: number;
  /** Milliseconds of the Astro build and of the Pagefind index. */
  astroMs: number;
  pagefindMs: number;
  /** CPU milliseconds (user and system) of the Astro builds, every process's together, the twins and the sitemap. */
  astroCpuMs: number;
}

export interface SiteBuildOptions {
  siteJsonDir: string;
  outDir: string;
  env?: NodeJS.ProcessEnv;
  /** Astro builds at once, each rendering its share of the pages (default: one a core, two at most). */
  shards?: number;
}

export class SiteBuildError extends Error {
  override name = 'SiteBuildError';
}

/**
 * Builds the static site from a release's site JSON into `outDir`, then indexes it for Pagefind search
 * (`outDir/pagefind/`). The build runs in a child process: Astro and Vite keep process-wide state and
 * memory that the nightly run should not carry, and a crash there cannot take the run down.
 * Rejects with a SiteBuildError holding the build's own error output.
 */
export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  // Astro writes its prerender bundle under the working folder when the output is outside it, and clears it
  // after the build: a scratch folder per build keeps concurrent builds apart, and inside the checkout the
  // bundle still resolves the project's node_modules.
  await mkdir(SCRATCH_ROOT, { recursive: true });
  const scratch = await mkdtemp(join(SCRATCH_ROOT, 'build-'));
  try {
    return await runBuildChild(options, scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function runBuildChild(options: SiteBuildOptions, scratch: string): Promise<SiteBuildResult> {
  const outcome = await runThisFile(
    ['--site-json', resolve(options.siteJsonDir), '--out', resolve(options.outDir), '--shards', String(options.shards ?? SHARDS)],
    { cwd: scratch, env: { ...process.env, ...options.env, ASTRO_TELEMETRY_DISABLED: '1' } },
    '{"pages"',
  );
  if ('failure' in outcome) throw new SiteBuildError(`site build failed ${outcome.failure}`);
  return JSON.parse(outcome.resultLine) as SiteBuildResult;
}

/**
 * This file run in a child process with `args`: its last line of output starting with `resultPrefix`, or the
 * exit code and the tail of what it printed when it failed or printed no such line.
 */
async function runThisFile(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal }, resultPrefix: string): Promise<{ resultLine: string } | { failure: string }> {
  const child = spawn(process.execPath, ['--import', join(PROJECT_ROOT, 'lib/node-guard.mjs'), fileURLToPath(import.meta.url), ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', resolveExit);
  });
  const resultLine = stdout.trim().split('\n').findLast((line) => line.startsWith(resultPrefix));
  if (code === 0 && resultLine) return { resultLine };
  return { failure: `(exit ${code}): ${(stderr.trim() || stdout.trim()).split('\n').slice(-20).join('\n')}` };
}

/** What the publish stage records in `<release>/site-build.json`. */
export type SiteOutcome =
  | { built: true; pages: number; astro_ms: number; pagefind_ms: number }
  | { built: false; error: string };

/**
 * The publish stage's site step: builds `<release>/site/` from `<release>/site-json/` before the release is
 * published, so the site swaps with the release. A failed build does not lose the release: tonight's data
 * still publishes (the API serves it), the failure is recorded in `site-build.json` and reported, and the
 * server keeps showing the newest earlier site, whose pages say when their figures were computed. The site
 * folder appears only once the build finished, so a half-built site is never served.
 */
export async function publishSite(releaseDir: string, build: typeof buildSite = buildSite): Promise<SiteOutcome> {
  const building = join(releaseDir, '.site-building');
  let outcome: SiteOutcome;
  try {
    const result = await build({ siteJsonDir: join(releaseDir, 'site-json'), outDir: building });
    await rename(building, join(releaseDir, 'site'));
    outcome = { built: true, pages: result.pages, astro_ms: result.astroMs, pagefind_ms: result.pagefindMs };
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    outcome = { built: false, error: error instanceof Error ? error.message : String(error) };
  }
  await writeFile(join(releaseDir, 'site-build.json'), `${JSON.stringify(outcome, null, 2)}\n`);
  return outcome;
}

/** Runs inside the child: the Astro builds, then the Pagefind index over what they wrote. */
async function buildInThisProcess(siteJsonDir: string, outDir: string, shards: number): Promise<SiteBuildResult> {
  const astroStarted = performance.now();
  const cpuStarted = process.cpuUsage();
  const { pages, otherCpuMs } = await buildShards(siteJsonDir, outDir, shards);
  await publishTwins(siteJsonDir, outDir);
  await writeSitemap(outDir, pages, siteOrigin());
  const astroMs = Math.round(performance.now() - astroStarted);
  const astroCpuMs = Math.round(cpuMs(process.cpuUsage(cpuStarted)) + otherCpuMs);
  const pagefindStarted = performance.now();
  await indexForSearch(outDir, pages);
  const pagefindMs = Math.round(performance.now() - pagefindStarted);
  return { pages: pages.length, astroMs, pagefindMs, astroCpuMs };
}

/**
 * Astro builds at once, one a core: rendering a page is work on one thread, and the build rendered 50,000 of them
 * while the second core idled. Each build renders its share of the pages (site/lib/build-shard.ts); the first
 * builds here into `outDir`, the others in child processes into folders beside it, and their pages are then moved
 * into `outDir`. Returns the HTML files written, relative to `outDir`, sorted, and the CPU time of the other builds.
 */
async function buildShards(siteJsonDir: string, outDir: string, count: number): Promise<{ pages: string[]; otherCpuMs: number }> {
  const others = Array.from({ length: count - 1 }, (_, i) => ({ index: i + 1, dir: `${outDir}.shard-${i + 1}` }));
  // A failed build stops the others: the site is not published without every page.
  const stop = new AbortController();
  try {
    const stopOthers = (error: unknown): never => {
      stop.abort();
      throw error;
    };
    const [own, theirs] = await Promise.all([
      astroBuild(siteJsonDir, outDir, `0/${count}`).catch(stopOthers),
      Promise.all(others.map((other) => shardChild(siteJsonDir, other.dir, `${other.index}/${count}`, stop.signal).catch(stopOthers))),
    ]);
    const pages = new Set(own);
    for (const [i, other] of others.entries()) {
      for (const file of await moveShardPages(other.dir, theirs[i]!.files, pages, outDir)) pages.add(file);
    }
    return { pages: [...pages].sort(), otherCpuMs: theirs.reduce((sum, other) => sum + other.cpuMs, 0) };
  } finally {
    await Promise.all(others.map((other) => rm(other.dir, { recursive: true, force: true })));
  }
}

/** One Astro build of the pages of `shard` into `outDir`, in this process; the HTML files it wrote. */
async function astroBuild(siteJsonDir: string, outDir: string, shard: string): Promise<string[]> {
  process.env.SITE_JSON_DIR = siteJsonDir;
  process.env.SITE_BUILD_SHARD = shard;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const { build } = await import('astro');
  // A cache of its own per build, in the build's scratch folder (its working folder, removed after): a
  // release is built once, and two builds must not share Vite's cache.
  const cacheDir = join(process.cwd(), 'cache');
  let pages: string[] = [];
  await build({ root: PROJECT_ROOT, outDir, cacheDir, logLevel: 'warn', mode: 'production', integrations: [writtenPages((files) => (pages = files))] });
  return pages;
}

/** A build of `shard` in a child process of its own, in a scratch folder of its own; the HTML files it wrote and its CPU time. */
async function shardChild(siteJsonDir: string, outDir: string, shard: string, signal: AbortSignal): Promise<ShardResult> {
  const scratch = join(process.cwd(), `shard-${shard.replace('/', '-of-')}`);
  await mkdir(scratch, { recursive: true });
  const outcome = await runThisFile(['--site-json', siteJsonDir, '--out', outDir, '--shard', shard], { cwd: scratch, env: process.env, signal }, '{"files"');
  if ('failure' in outcome) throw new Error(`site build ${shard} failed ${outcome.failure}`);
  return ShardResult.parse(JSON.parse(outcome.resultLine));
}

const ShardResult = z.object({ files: z.array(z.string()), cpuMs: z.number() });
type ShardResult = z.infer<typeof ShardResult>;

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/**
 * Moves the pages another build wrote (`files`, relative to `shardDir`) into `outDir`, but for those `outDir` has
 * already (the pages every build renders: the site's single pages); returns the files moved. A page alone in its
 * folder (a tender's, a buyer's) moves with its folder, one rename. Both builds bundled the same code, so their
 * scripts and stylesheets must be the same files: a page is not moved to link assets `outDir` lacks.
 */
async function moveShardPages(shardDir: string, files: string[], written: ReadonlySet<string>, outDir: string): Promise<string[]> {
  const [ours, theirs] = await Promise.all([readdir(join(outDir, ASSETS)), readdir(join(shardDir, ASSETS))]);
  if (ours.sort().join('\n') !== theirs.sort().join('\n')) throw new Error(`the site's builds bundled different assets: ${theirs.filter((f) => !ours.includes(f)).join(', ')}`);
  const moved = files.filter((file) => !written.has(file));
  // How many of the build's pages lie in each folder, its subfolders included: a folder holding one page moves whole.
  const pagesUnder = new Map<string, number>();
  for (const file of files) {
    for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) pagesUnder.set(folder, (pagesUnder.get(folder) ?? 0) + 1);
  }
  const renames = moved.map((file) => (file.endsWith('/index.html') && pagesUnder.get(dirname(file)) === 1 ? dirname(file) : file));
  // Synchronously, as the twins are linked: nothing else runs in this process now.
  for (const folder of new Set(renames.map(dirname))) mkdirSync(join(outDir, folder), { recursive: true });
  for (const path of renames) renameSync(join(shardDir, path), join(outDir, path));
  return moved;
}

/** The folder of the build's bundled scripts and stylesheets (Astro's `build.assets`). */
const ASSETS = '_astro';

/**
 * Hands over the HTML files the build wrote (relative to its output folder, sorted), for the sitemap and the search
 * index, from Astro's own record of each route's files: every page is a folder of its own, and listing 50,000
 * folders after the build took 12 s at production scale.
 */
function writtenPages(receive: (files: string[]) => void): AstroIntegration {
  return {
    name: 'written-pages',
    hooks: {
      'astro:build:done': ({ dir, assets }) => {
        const root = fileURLToPath(dir);
        receive([...assets.values()].flat().map((url) => relative(root, fileURLToPath(url))).filter((file) => file.endsWith('.html')).sort());
      },
    },
  };
}

/**
 * Each page's JSON twin is its site JSON file, already named after the page (`states/nsw.json` beside
 * `states/nsw/`) and checked by the collection schemas while its page rendered: published as it is, it stays
 * the API's reply. Both folders are the release's and never change once written, so a twin is a hard link to
 * its file (a copy of thousands of files took most of a second); a copy where the two folders are on
 * different file systems.
 */
async function publishTwins(siteJsonDir: string, outDir: string): Promise<void> {
  const files = (await readdir(siteJsonDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  for (const folder of new Set(files.map((file) => relative(siteJsonDir, file.parentPath)))) mkdirSync(join(outDir, folder), { recursive: true });
  // One link after another, synchronously: nothing else runs in this process now, and for 54,000 links the
  // asynchronous calls cost several times the CPU in promises and thread-pool round trips.
  for (const file of files) {
    const from = join(file.parentPath, file.name);
    const to = join(outDir, relative(siteJsonDir, file.parentPath), file.name);
    try {
      linkSync(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      copyFileSync(from, to);
    }
  }
}

/** Builds at once by default: one a core, two at most, as each holds the release's site JSON in memory (about 1 GB at production scale). */
const SHARDS = Math.min(2, availableParallelism());

/** Pages read at once for the search index (the process may open only so many files). */
const READ_BATCH = 64;

/** A sitemap holds at most this many addresses (sitemaps.org); a larger site gets a sitemap index. */
const SITEMAP_LIMIT = 50_000;

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * `sitemap.xml` naming every page built (the 404 page aside), and `robots.txt` allowing every crawler and
 * naming the sitemap. Written from the HTML files the build wrote (`files`, relative to `outDir`), so
 * the sitemap cannot miss or invent a page.
 * Past the sitemap limit, `sitemap.xml` is an index of `sitemap-<n>.xml` files.
 */
export async function writeSitemap(outDir: string, files: readonly string[], origin: string, limit = SITEMAP_LIMIT): Promise<void> {
  const pages = files
    .filter((file) => file === 'index.html' || file.endsWith('/index.html'))
    .map((file) => new URL(`/${file.slice(0, -'index.html'.length)}`, origin).href)
    .sort();
  const urlset = (urls: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((url) => `<url><loc>${xmlEscape(url)}</loc></url>`).join('\n')}\n</urlset>\n`;
  if (pages.length <= limit) {
    await writeFile(join(outDir, 'sitemap.xml'), urlset(pages));
  } else {
    const parts: string[] = [];
    for (let start = 0; start < pages.length; start += limit) {
      const name = `sitemap-${parts.length + 1}.xml`;
      await writeFile(join(outDir, name), urlset(pages.slice(start, start + limit)));
      parts.push(new URL(`/${name}`, origin).href);
    }
    await writeFile(join(outDir, 'sitemap.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.map((url) => `<sitemap><loc>${xmlEscape(url)}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`);
  }
  await writeFile(join(outDir, 'robots.txt'), `User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', origin).href}\n`);
}

/** The attribute Page.astro sets on the main content of the pages search finds by name (buyers, trades). */
const SEARCHABLE = 'data-pagefind-body';

/**
 * Pagefind's index of the pages that mark their content `data-pagefind-body` (buyers and trades, found by
 * name; tenders are searched through the live API). Only those pages are handed to Pagefind: given the whole
 * folder it parses every page, a page per tender among them, to find most of them unmarked, which took most
 * of the build at production scale.
 */
async function indexForSearch(outDir: string, pages: string[]): Promise<void> {
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
    if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
    // Read a batch at a time: one file after another waits on each read, all at once holds every page in memory.
    for (let start = 0; start < pages.length; start += READ_BATCH) {
      const batch = pages.slice(start, start + READ_BATCH);
      const contents = await Promise.all(batch.map((file) => readFile(join(outDir, file), 'utf8')));
      for (const [i, content] of contents.entries()) {
        if (!content.includes(SEARCHABLE)) continue;
        const added = await index.addHTMLFile({ url: pageUrl(batch[i]!), content });
        if (added.errors.length) throw new Error(`pagefind: ${batch[i]}: ${added.errors.join('; ')}`);
      }
    }
    const written = await index.writeFiles({ outputPath: join(outDir, 'pagefind') });
    if (written.errors.length) throw new Error(`pagefind: ${written.errors.join('; ')}`);
  } finally {
    await pagefind.close();
  }
}

/** A built page's address: `buyers/x/index.html` is `/buyers/x/`, `404.html` is `/404.html`. */
function pageUrl(file: string): string {
  return `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { 'site-json': { type: 'string' }, out: { type: 'string' }, shards: { type: 'string' }, shard: { type: 'string' } }, strict: true });
  const shards = Number(values.shards ?? 1);
  if (!values['site-json'] || !values.out || !Number.isInteger(shards) || shards < 1) {
    process.stderr.write('usage: pipeline/site-build.ts --site-json <release>/site-json --out <release>/site [--shards <count> | --shard <index>/<count>]\n');
    process.exit(2);
  }
  // With --shard, one of the builds of buildShards: its share of the pages, and the files it wrote.
  const running = values.shard
    ? astroBuild(values['site-json'], values.out, values.shard).then((files) => ({ files, cpuMs: cpuMs(process.cpuUsage()) }))
    : buildInThisProcess(values['site-json'], values.out, shards);
  running.then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
