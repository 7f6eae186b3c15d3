// A live content loader for the site JSON: each file under a folder is one entry named by its path there
// (`trades/civil-works/nsw.json` is `civil-works/nsw` of the `trades/` folder); the collection's schema
// checks it. The folder is the release's site JSON, named by SITE_JSON_DIR when the build runs.
import type { LiveLoader } from 'astro/loaders';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

function siteJsonDir(): string {
  const dir = process.env.SITE_JSON_DIR;
  if (!dir) throw new Error('SITE_JSON_DIR is not set: build the site with pipeline/site-build.ts, which points it at a release\'s site-json folder.');
  return dir;
}

/** `pattern` is a file name (`sources.json`), `*.json` (files of the folder) or `*\/*.json` (one level down). */
export function jsonPages(folder: string, pattern: string): LiveLoader<Record<string, unknown>, { id: string }> {
  // Read one file after another, synchronously: nothing else runs while a build loads its collections, and for a
  // folder of 50,000 small files the asynchronous reads cost five times the CPU (3.0 s against 0.6 s at production
  // scale) in promises and thread-pool round trips. One file is open at a time, so the open-files limit never bites.
  const read = (entry: string) => ({
    id: entry.replace(/\.json$/, ''),
    data: JSON.parse(readFileSync(join(siteJsonDir(), folder, entry), 'utf8')) as Record<string, unknown>,
  });
  return {
    name: 'json-pages',
    loadCollection: async () => {
      const depth = pattern.split('/').length;
      const entries = await readdir(join(siteJsonDir(), folder), { recursive: depth > 1 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      const wanted = entries.filter((entry) =>
        pattern.includes('*') ? entry.endsWith('.json') && entry.split('/').length === depth : entry === pattern,
      );
      return { entries: wanted.sort().map(read) };
    },
    loadEntry: async ({ filter }) => {
      try {
        return read(`${filter.id}.json`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
