// Typed content collections over one release's site JSON (written by pipeline/site-json.ts). Each
// collection's schema is the reply schema of the API route for the same thing, so a page reads exactly
// what the API would answer an anonymous caller, and its JSON twin is that reply.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { pathToFileURL } from 'node:url';
import { SourcesPage } from './lib/sources-page.ts';

const siteJsonDir = process.env.SITE_JSON_DIR;
if (!siteJsonDir) throw new Error('SITE_JSON_DIR is not set: build the site with pipeline/site-build.ts, which points it at a release\'s site-json folder.');
const base = pathToFileURL(`${siteJsonDir.replace(/\/$/, '')}/`);

/** One collection per page kind; an entry's id is its file's path under site-json without `.json`. */
const pages = <S extends Parameters<typeof defineCollection>[0]['schema']>(pattern: string, schema: S) =>
  defineCollection({
    loader: glob({ pattern, base, generateId: ({ entry }) => entry.replace(/\.json$/, '') }),
    schema,
  });

export const collections = {
  sources: pages('sources.json', SourcesPage),
};
