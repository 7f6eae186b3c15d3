// A live content loader for the site JSON: each file under a folder is one entry named by its path there
// (`trades/civil-works/nsw.json` is `civil-works/nsw` of the `trades/` folder); the collection's schema
// checks it. The folder is the release's site JSON, named by SITE_JSON_DIR when the build runs.
import type { LiveLoader } from 'astro/loaders';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

function siteJsonDir(): string {
  const dir = process.env.SITE_JSON_DIR;
  if (!dir) throw new Error('SITE_JSON_DIR is not set: build the site with pipeline/site-build.ts, which points it at a release\'s site-json folder.');
  return dir;
}

/** `pattern` is a file name (`sources.json`), `*.json` (files of the folder) or `*\/*.json` (one level down). */
export function jsonPages(folder: string, pattern: string): LiveLoader<Record<string, unknown>, { id: string }> {
  const read = async (entry: string) => ({
    id: entry.replace(/\.json$/, ''),
    data: JSON.parse(await readFile(join(siteJsonDir(), folder, entry), 'utf8')) as Record<string, unknown>,
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
      return { entries: await readInBatches(wanted.sort(), read) };
    },
    loadEntry: async ({ filter }) => read(`${filter.id}.json`).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    }),
  };
}

/**
 * Files read this many at a time: a folder holds a file per tender (50,000 at production scale), and opening
 * them all at once runs past the process's limit of open files (EMFILE) and fails the build.
 */
const READ_BATCH = 64;

async function readInBatches<T>(files: string[], read: (file: string) => Promise<T>): Promise<T[]> {
  const entries: T[] = [];
  for (let start = 0; start < files.length; start += READ_BATCH) {
    entries.push(...(await Promise.all(files.slice(start, start + READ_BATCH).map(read))));
  }
  return entries;
}
