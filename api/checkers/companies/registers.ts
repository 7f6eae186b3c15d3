import type { Manifest } from '../../../data/release.ts';
import type { Store } from '../../../data/store.ts';
import { searchTerms, type NormalisedName } from './names.ts';

/**
 * The two Australian registers as the release holds them: the ABN bulk extract (`abn_entities`, source
 * `au_abn_bulk_extract`) and ASIC's company dataset (`companies`, source `au_asic_companies`), both loaded by
 * the nightly run (data/models/abn_entities.sql, companies.sql). Read through the release's read-only store.
 */

export type RegisterName = 'abr' | 'asic';

export const REGISTER_SOURCES: Readonly<Record<RegisterName, { source: string; table: string; title: string }>> = {
  abr: { source: 'au_abn_bulk_extract', table: 'abn_entities', title: 'the ABN bulk extract (Australian Business Register)' },
  asic: { source: 'au_asic_companies', table: 'companies', title: "ASIC's company dataset" },
};

/** One ABN of the bulk extract. Individuals carry no name of their own there, only business and trading names. */
export interface AbrEntry {
  abn: string;
  abn_status: string;
  abn_status_from: string | null;
  entity_type_code: string;
  entity_type: string | null;
  individual: boolean;
  name: string | null;
  asic_number: string | null;
  trading_names: string[];
  business_names: string[];
  other_names: string[];
  as_of: string;
  stale: boolean;
}

/** One company of ASIC's dataset, its names over time folded into `former_names`. */
export interface AsicEntry {
  acn: string;
  name: string;
  former_names: string[];
  type: string | null;
  status: string;
  registered_date: string | null;
  deregistered_date: string | null;
  abn: string | null;
  as_of: string;
  stale: boolean;
}

/** A register name that shares words with the query; `kind` says which of the entity's names it is. */
export interface NameHit {
  key: string;
  name: string;
  kind: 'legal' | 'trading' | 'business' | 'other' | 'former';
}

/** Whether a register can be read in this release, and how current it is. */
export type RegisterState =
  | { readable: true; asOf: string; stale: boolean; detail: string }
  | { readable: false; detail: string };

export interface CompanyRegisters {
  state(register: RegisterName): Promise<RegisterState>;
  abrByAbn(abns: readonly string[]): Promise<AbrEntry[]>;
  abrByAcn(acns: readonly string[]): Promise<AbrEntry[]>;
  asicByAcn(acns: readonly string[]): Promise<AsicEntry[]>;
  asicByAbn(abns: readonly string[]): Promise<AsicEntry[]>;
  abrNames(name: NormalisedName): Promise<NameHit[]>;
  asicNames(name: NormalisedName): Promise<NameHit[]>;
}

// Names scored in TypeScript per register and query: the best-covered this many after the SQL narrowing.
const NAME_HITS = 400;
// A word or prefix held by more names than this is too common to look names up by, unless the query has no other.
const DEFAULT_COMMON_TERM_ROWS = 20_000;

const ABR_SELECT = `abn, abn_status, strftime(abn_status_from, '%Y-%m-%d') AS abn_status_from, entity_type_code, entity_type, individual,
  name, asic_number, trading_names, business_names, other_names, strftime(as_of, '%Y-%m-%d') AS as_of, stale`;
const ASIC_SELECT = `acn, name, former_names, type, status, strftime(registered_date, '%Y-%m-%d') AS registered_date,
  strftime(deregistered_date, '%Y-%m-%d') AS deregistered_date, abn, strftime(as_of, '%Y-%m-%d') AS as_of, stale`;

const questionMarks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * The registers of one loaded release: its store and the manifest that says how each source fared last night.
 * `commonTermRows` (default 20,000) is how many names a word may be held by before it counts as common.
 */
export function releaseRegisters(release: { store: Store; manifest: Manifest }, options: { commonTermRows?: number } = {}): CompanyRegisters {
  const { store, manifest } = release;
  const commonTermRows = options.commonTermRows ?? DEFAULT_COMMON_TERM_ROWS;
  const states = new Map<RegisterName, Promise<RegisterState>>();
  let nameIndex: Promise<boolean> | undefined;
  const nameIndexHeld = () =>
    (nameIndex ??= store.all<{ held: boolean }>("SELECT count(*) > 0 AS held FROM duckdb_tables() WHERE table_name = 'company_name_terms'").then(([row]) => row?.held === true));
  const rowsIn = async <T>(sql: string, values: readonly string[]): Promise<T[]> => (values.length === 0 ? [] : store.all<T>(sql, [...values]));

  /**
   * A register's names sharing a word (or a word's first four letters) with the query, from the name index
   * (data/models/company_name_terms.sql, sorted by term), most shared words first. A word or prefix held by more
   * than `commonTermRows` names (SERVICES, GROUP, AUSTRALIA) is looked up only when the query has no rarer one:
   * a name sharing only such words with the query is rarely the one meant, and reading them all costs seconds.
   */
  const namesLike = async (register: RegisterName, query: NormalisedName): Promise<NameHit[]> => {
    if (!(await nameIndexHeld())) throw new Error('this release predates the name index (table company_name_terms), which the next nightly run builds');
    const { words, prefixes } = searchTerms(query);
    // One lookup per word or prefix, each reading its own sorted run: OR-ed together, DuckDB would scan the whole table.
    const lookups = [
      ...words.map((word) => ({ where: 'term = ?', values: [word] })),
      ...prefixes.map((prefix) => ({ where: 'term >= ? AND term < ?', values: [prefix, nextPrefix(prefix)] })),
    ];
    if (lookups.length === 0) return [];
    const counts = await store.all<{ lookup: number; rows: number }>(
      lookups.map((lookup, index) => `SELECT ${index} AS lookup, count(*)::INTEGER AS rows FROM company_name_terms WHERE register = ? AND ${lookup.where}`).join(' UNION ALL '),
      lookups.flatMap((lookup) => [register, ...lookup.values]),
    );
    const rare = counts.filter((count) => count.rows > 0 && count.rows <= commonTermRows);
    const chosen = rare.length > 0 ? rare : counts.filter((count) => count.rows > 0).sort((a, b) => a.rows - b.rows).slice(0, 1);
    if (chosen.length === 0) return [];
    const used = chosen.map((count) => lookups[count.lookup]!);
    return store.all<NameHit>(
      `SELECT key, name, kind FROM (${used.map((lookup) => `SELECT key, name, kind, term FROM company_name_terms WHERE register = ? AND ${lookup.where}`).join(' UNION ALL ')})
       GROUP BY key, name, kind ORDER BY count(DISTINCT term) DESC, name, key LIMIT ${NAME_HITS}`,
      used.flatMap((lookup) => [register, ...lookup.values]),
    );
  };

  return {
    state(register) {
      let state = states.get(register);
      if (!state) {
        state = readState(store, manifest, register);
        states.set(register, state);
      }
      return state;
    },
    abrByAbn: (abns) => rowsIn(`SELECT ${ABR_SELECT} FROM abn_entities WHERE abn IN (${questionMarks(abns)}) ORDER BY abn`, abns),
    abrByAcn: (acns) => rowsIn(`SELECT ${ABR_SELECT} FROM abn_entities WHERE asic_number IN (${questionMarks(acns)}) ORDER BY abn`, acns),
    asicByAcn: (acns) => rowsIn(`SELECT ${ASIC_SELECT} FROM companies WHERE acn IN (${questionMarks(acns)}) ORDER BY acn`, acns),
    asicByAbn: (abns) => rowsIn(`SELECT ${ASIC_SELECT} FROM companies WHERE abn IN (${questionMarks(abns)}) ORDER BY acn`, abns),
    abrNames: (query) => namesLike('abr', query),
    asicNames: (query) => namesLike('asic', query),
  };
}

/** The least string after every string starting with `prefix` (index terms are A–Z and 0–9 only). */
function nextPrefix(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}

async function readState(store: Store, manifest: Manifest, register: RegisterName): Promise<RegisterState> {
  const { source, table, title } = REGISTER_SOURCES[register];
  const run = manifest.sources.find((summary) => summary.id === source);
  if (!run) return { readable: false, detail: `This release does not hold ${title}: the nightly run that built it did not include source ${source}.` };
  const [held] = await store.all<{ rows: number; as_of: string | null; stale: boolean | null }>(
    `SELECT count(*)::INTEGER AS rows, strftime(max(as_of), '%Y-%m-%d') AS as_of, bool_or(stale) AS stale FROM ${table} WHERE source = ?`,
    [source],
  );
  if (!held || held.rows === 0 || held.as_of === null) {
    const why = run.why ? ` (${run.why})` : '';
    return { readable: false, detail: `${capitalise(title)} holds no rows in this release: source ${source} has not loaded one yet; last run ${run.status}${why}.` };
  }
  const stale = held.stale === true;
  const detail = stale
    ? `Read ${title} as of ${held.as_of}, carried from an earlier night because last night's download failed${run.why ? ` (${run.why})` : ''}.`
    : `Read ${title} as of ${held.as_of}.`;
  return { readable: true, asOf: held.as_of, stale, detail };
}

function capitalise(text: string): string {
  return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
}
