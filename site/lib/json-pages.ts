// A content loader for the site JSON: each file under a folder is one entry named by its path there
// (`trades/civil-works/nsw.json` is `civil-works/nsw` of the `trades/` folder), validated by the
// collection's schema. Astro's glob loader does the same with file watching and per-file bookkeeping the
// nightly build never uses; reading the folder directly keeps content sync quick at thousands of pages.
import type { Loader } from 'astro/loaders';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `pattern` is a file name (`sources.json`), `*.json` (files of the folder) or `*\/*.json` (one level down). */
export function jsonPages(dir: string, folder: string, pattern: string): Loader {
  return {
    name: 'json-pages',
    load: async ({ store, parseData }) => {
      store.clear();
      const root = join(dir, folder);
      const depth = pattern.split('/').length;
      const entries = await readdir(root, { recursive: depth > 1 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      const wanted = entries.filter((entry) =>
        pattern.includes('*') ? entry.endsWith('.json') && entry.split('/').length === depth : entry === pattern,
      );
      await Promise.all(wanted.map(async (entry) => {
        const id = entry.replace(/\.json$/, '');
        const data = await parseData({ id, data: JSON.parse(await readFile(join(root, entry), 'utf8')) as Record<string, unknown> });
        store.set({ id, data });
      }));
    },
  };
}
