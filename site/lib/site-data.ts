// The pages' one way to the site JSON: the live collections of live.config.ts, each read and checked by its
// schema once per build (pages share the result), failing the build on a missing or invalid file rather
// than publishing a page without its data.
import { getLiveCollection, getLiveEntry, type LiveContentConfig } from 'astro:content';

type Name = keyof LiveContentConfig['collections'];

const collections = new Map<Name, Promise<unknown>>();
const entries = new Map<string, Promise<unknown>>();

/** Every entry of a collection (every file of its folder), in id order. */
export function pageEntries<C extends Name>(name: C) {
  let loaded = collections.get(name) as ReturnType<typeof loadCollection<C>> | undefined;
  if (!loaded) {
    loaded = loadCollection(name);
    collections.set(name, loaded);
  }
  return loaded;
}

async function loadCollection<C extends Name>(name: C) {
  const result = await getLiveCollection(name);
  if (result.error) throw result.error;
  return result.entries;
}

/** One entry (a single-file collection's file), or an error when the release's site JSON lacks it. */
export function pageEntry<C extends Name>(name: C, id: string) {
  const key = `${name}/${id}`;
  let loaded = entries.get(key) as ReturnType<typeof loadEntry<C>> | undefined;
  if (!loaded) {
    loaded = loadEntry(name, id);
    entries.set(key, loaded);
  }
  return loaded;
}

async function loadEntry<C extends Name>(name: C, id: string) {
  const result = await getLiveEntry(name, id);
  if (result.error) throw result.error;
  return result.entry;
}

/** One entry of a collection: its id (the file's path below the collection's folder) and checked data. */
export type PageEntry<C extends Name> = Awaited<ReturnType<typeof loadCollection<C>>>[number];
