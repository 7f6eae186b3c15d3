import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const FIXTURES_ROOT = new URL('../fixtures/sources/', import.meta.url).pathname;

/**
 * `fixtures/sources/<id>/_meta.json`: where each recorded file came from. `url` is the original address;
 * its path and query are what the fixture server matches (`*` matches any run of characters within them).
 */
export const FixtureMeta = z.object({
  source: z.string(),
  captured_at: z.iso.datetime({ offset: true }),
  provenance: z.string().min(1),
  /**
   * How far the set follows the live source's real markup: `real` when every page shape the adapter parses comes
   * from a public capture of the live site, `partial` when some do, `none` when no capture could be found (the
   * source's caveats then say so). Required in a source's base folder; night folders inherit it.
   */
  real_capture: z.enum(['real', 'partial', 'none']).optional(),
  /** The public captures the files follow: repository (owner/name), path inside it and commit. */
  captures: z
    .array(
      z.object({
        repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
        path: z.string().min(1),
        commit: z.string().regex(/^[0-9a-f]{7,40}$/),
        /** The live address the capture was taken from, when known. */
        url: z.string().optional(),
      }),
    )
    .default([]),
  /** A night folder may declare that the source fails that night, so incremental runs meet a failure. */
  fault: z.enum(['http500', 'hang']).optional(),
  files: z.array(
    z.object({
      file: z.string().nullable(),
      url: z.string(),
      method: z.enum(['GET', 'POST']).default('GET'),
      status: z.number().int().default(200),
      content_type: z.string().default('text/html; charset=utf-8'),
      /** For POST APIs that page in the body: the entry matches only when the request body contains this text. */
      body_contains: z.string().optional(),
      /**
       * Validators the server sends with the file (ETag verbatim, Last-Modified as an HTTP date); a GET carrying
       * a matching If-None-Match, or an If-Modified-Since not older than `last_modified`, is answered 304.
       */
      etag: z.string().optional(),
      last_modified: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'an HTTP date').optional(),
      /** `capture`: a real page (trimmed, never invented); `derived`: a real page edited for an edge case; `synthetic`: built from documentation. */
      origin: z.enum(['capture', 'derived', 'synthetic']).optional(),
      note: z.string().optional(),
    }),
  ),
});
export type FixtureMeta = z.infer<typeof FixtureMeta>;

/**
 * The folder whose `_meta.json` describes a source on a fixture night: `<root>/<id>/<night>/` when that
 * night has its own recording (files there may point back with `../`), else `<root>/<id>/`.
 */
export function fixtureDir(sourceId: string, root = FIXTURES_ROOT, night?: string): string {
  if (night) {
    const nightDir = join(root, sourceId, night);
    if (existsSync(join(nightDir, '_meta.json'))) return nightDir;
  }
  return join(root, sourceId);
}

export async function readFixtureMeta(sourceId: string, root = FIXTURES_ROOT, night?: string): Promise<FixtureMeta> {
  const text = await readFile(join(fixtureDir(sourceId, root, night), '_meta.json'), 'utf8');
  return FixtureMeta.parse(JSON.parse(text));
}
