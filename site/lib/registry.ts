// The registry's attributions, for pages whose figures span every source (home, trades list).
import { pageEntry } from './site-data.ts';
import type { Attribution } from './format.ts';

export async function allAttributions(): Promise<Attribution[]> {
  const entry = await pageEntry('sources', 'sources');
  return entry.data.sources.map((s) => ({ source: s.id, name: s.name, licence: s.licence, attribution: s.attribution }));
}

/** The attributions of the sources named, in registry order. */
export async function attributionsFor(ids: Iterable<string>): Promise<Attribution[]> {
  const wanted = new Set(ids);
  return (await allAttributions()).filter((a) => wanted.has(a.source));
}
