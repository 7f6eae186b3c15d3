type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasIds = (value: unknown): value is Json[] => Array.isArray(value) && value.length > 0 && value.every((entry) => isObject(entry) && 'id' in entry);

/** Merges a later object into an earlier one as OCDS merging does: field by field, arrays of objects by `id`. */
function mergeInto(target: Json, update: Json): Json {
  for (const [field, value] of Object.entries(update)) {
    const held = target[field];
    if (isObject(value) && isObject(held)) target[field] = mergeInto({ ...held }, value);
    else if (hasIds(value) && hasIds(held)) {
      const byId = new Map(held.map((entry) => [String(entry.id), entry]));
      for (const entry of value) {
        const earlier = byId.get(String(entry.id));
        byId.set(String(entry.id), earlier ? mergeInto({ ...earlier }, entry) : structuredClone(entry));
      }
      target[field] = [...byId.values()];
    } else target[field] = structuredClone(value);
  }
  return target;
}

/**
 * The compiled record of each contracting process, as OCDS tools (ocdskit compile, OCDS Merge) build it from a
 * stream of release packages: releases grouped by ocid and sorted by date, ties kept in the order read, and
 * merged so each field holds its latest value. Release-only fields (`id`, `date`, `tag`) are left out.
 */
export function compileRecords(packages: { releases: Json[] }[]): Map<string, Json> {
  const byOcid = new Map<string, Json[]>();
  for (const release of packages.flatMap((pack) => pack.releases)) {
    const ocid = String(release.ocid);
    byOcid.set(ocid, [...(byOcid.get(ocid) ?? []), release]);
  }
  const records = new Map<string, Json>();
  for (const [ocid, releases] of byOcid) {
    const sorted = releases.toSorted((a, b) => Date.parse(String(a.date)) - Date.parse(String(b.date)));
    const compiled: Json = {};
    for (const { id: _id, date: _date, tag: _tag, ...fields } of sorted) mergeInto(compiled, fields);
    records.set(ocid, compiled);
  }
  return records;
}
