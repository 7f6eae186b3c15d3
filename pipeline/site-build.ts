import { spawn } from 'node:child_process';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AstroIntegration } from 'astro';
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
export async function buildSite(options: { siteJsonDir: string; outDir: string; env?: NodeJS.ProcessEnv }): Promise<SiteBuildResult> {
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

async function runBuildChild(options: { siteJsonDir: string; outDir: string; env?: NodeJS.ProcessEnv }, scratch: string): Promise<SiteBuildResult> {
  const child = spawn(
    process.execPath,
    ['--import', join(PROJECT_ROOT, 'lib/node-guard.mjs'), fileURLToPath(import.meta.url), '--site-json', resolve(options.siteJsonDir), '--out', resolve(options.outDir)],
    { cwd: scratch, env: { ...process.env, ...options.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', resolveExit);
  });
  const resultLine = stdout.trim().split('\n').findLast((line) => line.startsWith('{"pages"'));
  if (code !== 0 || !resultLine) {
    const detail = (stderr.trim() || stdout.trim()).split('\n').slice(-20).join('\n');
    throw new SiteBuildError(`site build failed (exit ${code}): ${detail}`);
  }
  return JSON.parse(resultLine) as SiteBuildResult;
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

/** Runs inside the child: the Astro build, then the Pagefind index over what it wrote. */
async function buildInThisProcess(siteJsonDir: string, outDir: string): Promise<SiteBuildResult> {
  process.env.SITE_JSON_DIR = siteJsonDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const { build } = await import('astro');
  // A cache of its own per build, in the build's scratch folder (its working folder, removed after): a
  // release is built once, and two builds must not share Vite's cache.
  const cacheDir = join(process.cwd(), 'cache');
  const astroStarted = performance.now();
  let pages: string[] = [];
  await build({ root: PROJECT_ROOT, outDir, cacheDir, logLevel: 'warn', mode: 'production', integrations: [writtenPages((files) => (pages = files))] });
  await publishTwins(siteJsonDir, outDir);
  await writeSitemap(outDir, pages, siteOrigin());
  const astroMs = Math.round(performance.now() - astroStarted);
  const pagefindStarted = performance.now();
  await indexForSearch(outDir, pages);
  const pagefindMs = Math.round(performance.now() - pagefindStarted);
  return { pages: pages.length, astroMs, pagefindMs };
}

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
  for (const folder of new Set(files.map((file) => relative(siteJsonDir, file.parentPath)))) {
    await mkdir(join(outDir, folder), { recursive: true });
  }
  // A batch at a time: a copy opens two files, and a file per tender opened at once runs out of descriptors.
  for (let start = 0; start < files.length; start += READ_BATCH) {
    await Promise.all(files.slice(start, start + READ_BATCH).map(async (file) => {
      const from = join(file.parentPath, file.name);
      const to = join(outDir, relative(siteJsonDir, file.parentPath), file.name);
      await link(from, to).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        return copyFile(from, to);
      });
    }));
  }
}

/** Files opened at once when reading or copying a folder of thousands (the process may open only so many). */
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
  const { values } = parseArgs({ options: { 'site-json': { type: 'string' }, out: { type: 'string' } }, strict: true });
  if (!values['site-json'] || !values.out) {
    process.stderr.write('usage: pipeline/site-build.ts --site-json <release>/site-json --out <release>/site\n');
    process.exit(2);
  }
  buildInThisProcess(values['site-json'], values.out).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
