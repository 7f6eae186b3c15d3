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
  files: z.array(
    z.object({
      file: z.string().nullable(),
      url: z.string(),
      method: z.enum(['GET', 'POST']).default('GET'),
      status: z.number().int().default(200),
      content_type: z.string().default('text/html; charset=utf-8'),
      /** For POST APIs that page in the body: the entry matches only when the request body contains this text. */
      body_contains: z.string().optional(),
      note: z.string().optional(),
    }),
  ),
});
export type FixtureMeta = z.infer<typeof FixtureMeta>;

export async function readFixtureMeta(sourceId: string, root = FIXTURES_ROOT): Promise<FixtureMeta> {
  const text = await readFile(join(root, sourceId, '_meta.json'), 'utf8');
  return FixtureMeta.parse(JSON.parse(text));
}
