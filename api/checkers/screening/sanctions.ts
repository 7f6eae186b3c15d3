import { z } from 'zod';
import type { Store } from '../../../data/store.ts';
import { CANDIDATE_FLOOR, compareCountry, compareDateOfBirth, judge, nameSimilarity, type Strength } from './match.ts';
import { nameTokens, normaliseName } from './names.ts';

/** One listed party as the release's `sanctions_entries` table holds it (data/models/sanctions_entries.sql). */
export const SanctionsEntry = z.object({
  source: z.string(),
  list_name: z.string(),
  entry_id: z.string(),
  entity_type: z.enum(['person', 'organisation', 'vessel', 'aircraft']),
  name: z.string(),
  aliases: z.array(z.string()),
  /** Aliases the list itself grades weak or low quality: kept for reading, not screened (too loose to match on). */
  weak_aliases: z.array(z.string()),
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, at the precision the list gives. */
  dates_of_birth: z.array(z.string()),
  nationalities: z.array(z.string()),
  /** Countries of address and of birth. */
  countries: z.array(z.string()),
  programmes: z.array(z.string()),
});
export type SanctionsEntry = z.infer<typeof SanctionsEntry>;

/** One list in the index: which source, how many parties, and the date of the file they came from. */
export interface IndexedList {
  source: string;
  list_name: string;
  entries: number;
  as_of: string | null;
}

interface IndexedName {
  entry: number;
  tokens: string[];
}

/**
 * The lists held in memory for screening: every primary name and strong alias as tokens, and a blocking map
 * from short keys of each token to the names holding it, so a query scores a few hundred names rather than
 * every one. Memory: about 1 KB per listed party (bench/sanctions-bench.ts measures 20,000 parties).
 */
export interface SanctionsIndex {
  entries: SanctionsEntry[];
  lists: IndexedList[];
  names: IndexedName[];
  blocks: Map<string, number[]>;
}

/**
 * The keys a token is filed under: its first two letters, its first two consonants (so Osama and Usama, or
 * Mohammed and Muhammad, meet) and its last three letters (so Ntaganda meets Taganda).
 */
export function blockKeys(token: string): string[] {
  const consonants = token.slice(1).replace(/[aeiouyhw]/g, '');
  const keys = [`p:${token.slice(0, 2)}`, `c:${(token[0] ?? '').replace(/[aeiouyhw]/, '')}${consonants.slice(0, 2)}`];
  if (token.length >= 4) keys.push(`s:${token.slice(-3)}`);
  return keys;
}

export function buildSanctionsIndex(entries: SanctionsEntry[], lists: IndexedList[] = []): SanctionsIndex {
  const names: IndexedName[] = [];
  const blocks = new Map<string, number[]>();
  entries.forEach((entry, entryIndex) => {
    const seen = new Set<string>();
    for (const text of [entry.name, ...entry.aliases]) {
      const tokens = nameTokens(text);
      const key = tokens.join(' ');
      if (tokens.length === 0 || seen.has(key)) continue;
      seen.add(key);
      const nameIndex = names.push({ entry: entryIndex, tokens }) - 1;
      const keys = new Set(tokens.flatMap(blockKeys));
      for (const blockKey of keys) {
        const holders = blocks.get(blockKey);
        if (holders) holders.push(nameIndex);
        else blocks.set(blockKey, [nameIndex]);
      }
    }
  });
  return { entries, lists, names, blocks };
}

export interface ScreeningQuery {
  name: string;
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
  dob?: string;
  /** A country name or ISO 3166 alpha-2 code. */
  country?: string;
  aliases?: string[];
}

export interface SanctionsCandidate {
  name: string;
  score: number;
  strength: Strength;
  corroboration: string[];
  topics: string[];
  /** How many of the screened lists name this party. */
  datasets: number;
}

/** The spec's `sanctions` block of the adverse-media result. */
export interface SanctionsBlock {
  candidates: SanctionsCandidate[];
  strong_matches: number;
  possible_matches: number;
  common_name_ambiguity: boolean;
}

/** As many candidates as OpenSanctions' yente returns by default (MAX_MATCHES). */
const MAX_CANDIDATES = 10;

/**
 * The names that share blocking keys with enough of the query's tokens to be worth scoring: at least two
 * of them (or every token, for one-token names), since a single shared part is capped low anyway.
 */
function blockedNames(index: SanctionsIndex, queryTokens: string[]): number[] {
  const hits = new Map<number, number>();
  for (const token of new Set(queryTokens)) {
    const holders = new Set<number>();
    for (const key of blockKeys(token)) for (const name of index.blocks.get(key) ?? []) holders.add(name);
    for (const name of holders) hits.set(name, (hits.get(name) ?? 0) + 1);
  }
  const chosen: number[] = [];
  for (const [name, count] of hits) {
    const listed = index.names[name]!.tokens.length;
    if (count >= Math.min(2, queryTokens.length, listed)) chosen.push(name);
  }
  return chosen;
}

// Programme names and codes to OpenSanctions topics (checkers-research §8.1): the list says what a party is
// sanctioned for only through the programme it is listed under.
const PROGRAMME_TOPICS: [RegExp, string][] = [
  [/\b(SDGT|FTO|terror|ISIL|Al-Qaida|Qaida|Taliban|1267|1988)\b/i, 'crime.terror'],
  [/\b(SDNT|SDNTK|narcotic|drug|ILLICIT-DRUGS)\b/i, 'crime.traffick.drug'],
  [/\b(CYBER|cyber)\b/i, 'crime.cyber'],
  [/\b(NPWMD|proliferation|1718|DPRK|non-proliferation)\b/i, 'export.control'],
  [/\b(GLOMAG|Magnitsky|corruption)\b/i, 'crime.fin'],
  [/\b(TCO|transnational criminal)\b/i, 'crime'],
];

function topicsOf(entries: SanctionsEntry[]): string[] {
  const topics = new Set(['sanction']);
  for (const programme of entries.flatMap((entry) => entry.programmes)) {
    for (const [pattern, topic] of PROGRAMME_TOPICS) if (pattern.test(programme)) topics.add(topic);
  }
  return [...topics].sort();
}

const STRENGTH_ORDER: Record<Strength, number> = { strong: 0, possible: 1, weak: 2 };

/** One listed party (its listings on one or more lists) that matched a screened subject. */
export interface PartyMatch {
  /** The listed name of the best-scoring listing. */
  name: string;
  /** Every listing of the party that matched (one per list that names it). */
  entries: SanctionsEntry[];
  score: number;
  strength: Strength;
  corroboration: string[];
  contradiction: string[];
}

/**
 * The listed parties a subject matches. Every listing whose name (primary or strong alias) is at least
 * CANDIDATE_FLOOR alike to the subject's name or one of its aliases is judged with the date of birth and
 * country; listings of one party on several lists (same entity type and normalised name) are one match.
 * Ordered strong, possible, weak, then by score.
 */
export function matchParties(index: SanctionsIndex, query: ScreeningQuery): PartyMatch[] {
  const queryNames = [query.name, ...(query.aliases ?? [])].map(nameTokens).filter((tokens) => tokens.length > 0);
  const bestByEntry = new Map<number, number>();
  for (const tokens of queryNames) {
    for (const nameIndex of blockedNames(index, tokens)) {
      const listed = index.names[nameIndex]!;
      const similarity = nameSimilarity(tokens, listed.tokens);
      if (similarity >= CANDIDATE_FLOOR && similarity > (bestByEntry.get(listed.entry) ?? 0)) bestByEntry.set(listed.entry, similarity);
    }
  }
  const parties = new Map<string, PartyMatch>();
  for (const [entryIndex, similarity] of bestByEntry) {
    const entry = index.entries[entryIndex]!;
    const judgement = judge(
      similarity,
      compareDateOfBirth(query.dob, entry.dates_of_birth),
      compareCountry(query.country, [...entry.nationalities, ...entry.countries]),
    );
    const key = `${entry.entity_type}:${normaliseName(entry.name)}`;
    const party = parties.get(key);
    if (!party) parties.set(key, { name: entry.name, entries: [entry], ...judgement });
    else {
      party.entries.push(entry);
      if (judgement.score > party.score) Object.assign(party, { name: entry.name, ...judgement });
    }
  }
  return [...parties.values()].sort(
    (a, b) => STRENGTH_ORDER[a.strength] - STRENGTH_ORDER[b.strength] || b.score - a.score || a.name.localeCompare(b.name),
  );
}

/**
 * Screens one subject against the index and answers the spec's `sanctions` block: the best MAX_CANDIDATES
 * parties, `datasets` counting the lists that name each. `common_name_ambiguity` is true when the name alone
 * cannot pick out one party: a one-part name, or more than one party matching without a qualifier that differs.
 */
export function screenName(index: SanctionsIndex, query: ScreeningQuery): SanctionsBlock {
  const candidates: SanctionsCandidate[] = matchParties(index, query)
    .slice(0, MAX_CANDIDATES)
    .map((party) => ({
      name: party.name,
      score: party.score,
      strength: party.strength,
      corroboration: party.corroboration,
      topics: topicsOf(party.entries),
      datasets: new Set(party.entries.map((entry) => entry.source)).size,
    }));
  const unrefuted = candidates.filter((candidate) => candidate.strength !== 'weak').length;
  return {
    candidates,
    strong_matches: candidates.filter((candidate) => candidate.strength === 'strong').length,
    possible_matches: candidates.filter((candidate) => candidate.strength === 'possible').length,
    common_name_ambiguity: nameTokens(query.name).length === 1 || unrefuted > 1,
  };
}

const ENTRY_COLUMNS = 'source, list_name, entry_id, entity_type, name, aliases, weak_aliases, dates_of_birth, nationalities, countries, programmes';

/** Reads the release's lists into an index; an older release without the table gives an empty one. */
export async function loadSanctionsIndex(store: Store): Promise<SanctionsIndex> {
  const [table] = await store.all<{ present: boolean }>(
    `SELECT count(*) > 0 AS present FROM information_schema.tables WHERE table_name = 'sanctions_entries'`,
  );
  if (!table?.present) return buildSanctionsIndex([]);
  const rows = await store.all(`SELECT ${ENTRY_COLUMNS} FROM sanctions_entries ORDER BY source, entry_id`);
  const lists = await store.all<IndexedList>(
    `SELECT source, list_name, count(*)::INTEGER AS entries, max(as_of)::VARCHAR AS as_of FROM sanctions_entries GROUP BY source, list_name ORDER BY source`,
  );
  return buildSanctionsIndex(rows.map((row) => SanctionsEntry.parse(row)), lists);
}

const loaded = new WeakMap<Store, Promise<SanctionsIndex>>();

/**
 * The index of a release's store, built on first use and kept while the store lives (a release is replaced
 * with its store, so a new night's lists are read by the first screening after the switch).
 */
export function sanctionsIndexOf(store: Store): Promise<SanctionsIndex> {
  let index = loaded.get(store);
  if (!index) {
    index = loadSanctionsIndex(store);
    loaded.set(store, index);
    // a failed read is not kept, so the next screening tries again
    index.catch(() => loaded.delete(store));
  }
  return index;
}
