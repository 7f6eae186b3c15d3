import { z } from 'zod';
import type { Store } from '../store.ts';

/**
 * What every intelligence reply builder reads: one release's store and its registry, and the service clock.
 * The API builds it from the release it serves; the nightly run builds it from the store it just wrote, to
 * write the site JSON. Builders are read-only, so the same builder gives the static page's JSON twin and the
 * API reply the same shape.
 */
export interface IntelContext {
  /** The release's DuckDB store (opened read-only by the API). */
  store: Store;
  /** The night the figures are true for (`computed_at` of the release's manifest, ISO). */
  computedAt: string;
  /** Today and "the next 12 months" are judged against this clock. */
  now: Date;
  /** The `sources` registry rows, for the attribution each licence requires. */
  registry: readonly SourceAttributionRow[];
}

/** Who is asking: links, supplier and holder names, incumbents and evidence URLs are for identified callers only. */
export interface Audience {
  /** True for an API key or a signed-in session (spec, Authentication 7). */
  identified: boolean;
}

export const ANONYMOUS: Audience = Object.freeze({ identified: false });

/** The registry fields an attribution needs. */
export interface SourceAttributionRow {
  id: string;
  name: string;
  licence: string;
  attribution: string;
}

export const Attribution = z
  .object({
    source: z.string().meta({ description: 'Registry id.' }),
    name: z.string(),
    licence: z.string().meta({ description: 'The data licence as the source states it.' }),
    attribution: z.string().meta({ description: 'The attribution the licence requires; show it with the data.' }),
  })
  .meta({ id: 'Attribution' });
export type Attribution = z.infer<typeof Attribution>;

/** The attribution each data licence requires, for the sources named (registry order, each once). */
export function attributions(sourceIds: Iterable<string>, registry: readonly SourceAttributionRow[]): Attribution[] {
  const wanted = new Set(sourceIds);
  return registry.filter((row) => wanted.has(row.id)).map((row) => ({ source: row.id, name: row.name, licence: row.licence, attribution: row.attribution }));
}

/** Reads the registry's attribution fields from a release store (the nightly run's side; the API keeps them loaded). */
export async function readRegistry(store: Store): Promise<SourceAttributionRow[]> {
  return store.all<SourceAttributionRow>('SELECT id, name, licence, attribution FROM sources ORDER BY id');
}
