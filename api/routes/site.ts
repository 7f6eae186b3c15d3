import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listReleaseIds, releasesDir } from '../../data/release.ts';
import type { LoadedRelease, ReleaseStore } from '../release-store.ts';

export interface SiteFilesOptions {
  store: Pick<ReleaseStore, 'state'>;
  /** The folder holding `releases/`: each release's built site is `releases/<id>/site/`. */
  dataDir: string;
  /** Whether an API route answers this method and path; those requests never reach the site. */
  isApiRoute: (method: string, path: string) => boolean;
}

/** Where a release's built site lives (pipeline/site-build.ts writes it there at publish). */
export function siteDirOf(dataDir: string, releaseId: string): string {
  return join(releasesDir(dataDir), releaseId, 'site');
}

/**
 * Serves the static site of the release being served, at `/`, beside the API. API routes keep precedence:
 * a path an API route answers is passed straight on. The site swaps with the release: each release holds
 * its own built site. When tonight's site build failed, the newest earlier release's site is served (each of
 * its pages says when its figures were computed) until a release with a site is published.
 *
 * Pages are static files, so they skip the caller, meter and burst guard: a page view is a handful of
 * requests (page, stylesheet, search index pieces) that a person should never see refused.
 *
 * @example
 * app.use('*', siteFiles({ store, dataDir: 'data', isApiRoute: (method, path) => apiRouter.match(method, path)[0].length > 0 }));
 */
export function siteFiles(options: SiteFilesOptions): MiddlewareHandler {
  const siteOf = new WeakMap<LoadedRelease, Promise<string | null>>();
  let serving: { root: string; serve: MiddlewareHandler } | null = null;
  const serverFor = (root: string) => {
    if (serving?.root !== root) {
      // A release's files never change, but the page at a path does when the release swaps: revalidate.
      serving = { root, serve: serveStatic({ root, onFound: (_path, c) => c.header('Cache-Control', 'no-cache') }) };
    }
    return serving.serve;
  };
  return async function siteFilesMiddleware(c, next) {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return next();
    const path = c.req.path;
    // Everything under /v1/ is the API's (the site has no page there): decided without routing, since every
    // API request passes through here.
    if (path.startsWith('/v1/') || options.isApiRoute('GET', path)) return next();
    const state = options.store.state();
    if (!state.ready) return next();
    let root = siteOf.get(state.release);
    if (!root) {
      root = servedSiteDir(options.dataDir, state.release.id);
      siteOf.set(state.release, root);
    }
    const dir = await root;
    if (!dir) return next();
    let found = true;
    const reply = await serverFor(dir)(c, async () => {
      found = false;
    });
    if (found && reply) return reply;
    return pageNotFound(c, dir, next);
  };
}

/** A person asking for a page that does not exist gets the site's own 404 page; anything else goes on to the API's 404. */
async function pageNotFound(c: Context, dir: string, next: () => Promise<void>): Promise<Response | void> {
  if (!(c.req.header('accept') ?? '').includes('text/html')) return next();
  const page = await readFile(join(dir, '404.html'), 'utf8').catch(() => null);
  if (page === null) return next();
  return c.html(page, 404);
}

/** The release's own site, or while it has none, the newest earlier release that has one. */
async function servedSiteDir(dataDir: string, releaseId: string): Promise<string | null> {
  const candidates = [releaseId, ...(await listReleaseIds(dataDir)).filter((id) => id < releaseId).reverse()];
  for (const id of candidates) {
    const dir = siteDirOf(dataDir, id);
    // The publish stage renames a site into place only once it built completely.
    if (await stat(dir).then((info) => info.isDirectory(), () => false)) return dir;
  }
  return null;
}

/** A matcher over an app's API routes (middleware registered on every path is not a route). */
export function apiRouteMatcher(routes: readonly { method: string; path: string }[]): (method: string, path: string) => boolean {
  const router = new TrieRouter<true>();
  for (const route of routes) if (route.path !== '*' && route.path !== '/*') router.add(route.method, route.path, true);
  return (method, path) => router.match(method, path)[0].length > 0;
}
