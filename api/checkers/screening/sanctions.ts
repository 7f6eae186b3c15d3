import { z } from 'zod';
import type { Store } from '../../../data/store.ts';
import { CANDIDATE_FLOOR, compareCountry, compareDateOfBirth, consonantSkeleton, judge, mightMatch, prepareName, preparedSimilarity, type PreparedName, type Strength } from './match.ts';
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

interface IndexedName extends PreparedName {
  entry: number;
}

/**
 * The lists held in memory for screening: every primary name and strong alias as prepared tokens, and a
 * blocking map from short keys of each token to the names holding it, so a query scores hundreds of names
 * rather than every one. Memory: about 2.5 KB per listed party, 50 MB of heap for 20,000 (bench/sanctions-bench.ts).
 */
export interface SanctionsIndex {
  entries: SanctionsEntry[];
  lists: IndexedList[];
  names: IndexedName[];
  blocks: Map<string, number[]>;
  /**
   * Names of two or three parts filed under each pair of their parts' keys (see `pairKeys`), as
   * `name * 4 + pair` so a screening can tell which of a name's pairs (0 to 2) it met.
   */
  pairBlocks: Map<string, number[]>;
  /** Scratch counters, one per name, reused by every screening (screening is synchronous). */
  scratch: { hits: Uint8Array; lastToken: Uint32Array; token: number };
}

/**
 * The keys a token is filed under: its first three letters; its first three sounding consonants, marked when
 * it starts with a vowel (so Osama and Usama, or Mohammed and Muhammad, meet); and, for longer tokens, its
 * last three letters (so Ntaganda meets Taganda).
 */
export function blockKeys(token: string): string[] {
  const keys = [`p:${token.slice(0, 3)}`];
  const skeleton = consonantSkeleton(token);
  // a one-consonant skeleton (Ali, Elai) would file thousands of unrelated names together
  if (skeleton.length >= 2) keys.push(`k:${/^[aeiou]/.test(token) ? '_' : ''}${skeleton.slice(0, 3)}`);
  if (token.length >= 5) keys.push(`s:${token.slice(-3)}`);
  return keys;
}

/** A listed name of at most this many parts is also found through any two of its parts, common ones included. */
const SHORT_NAME_PARTS = 3;

/**
 * The keys a pair of parts is filed under: each combination of their first-three-letter and sounding-consonant
 * keys, in a fixed order, so "AHMAD, Muhammad" is found from "Muhammad Ahmad Rezaei" though both parts are
 * common and the rare one (Rezaei) is not in the listed name.
 */
function pairKeys(a: string, b: string): string[] {
  const keysOf = (token: string) => blockKeys(token).filter((key) => !key.startsWith('s:'));
  const keys: string[] = [];
  for (const x of keysOf(a)) for (const y of keysOf(b)) keys.push(x < y ? `${x}|${y}` : `${y}|${x}`);
  return keys;
}

function file(blocks: Map<string, number[]>, key: string, name: number): void {
  const holders = blocks.get(key);
  if (holders) holders.push(name);
  else blocks.set(key, [name]);
}

export function buildSanctionsIndex(entries: SanctionsEntry[], lists: IndexedList[] = []): SanctionsIndex {
  const names: IndexedName[] = [];
  const blocks = new Map<string, number[]>();
  const pairBlocks = new Map<string, number[]>();
  entries.forEach((entry, entryIndex) => {
    const seen = new Set<string>();
    for (const text of [entry.name, ...entry.aliases]) {
      const tokens = nameTokens(text);
      const key = tokens.join(' ');
      if (tokens.length === 0 || seen.has(key)) continue;
      seen.add(key);
      const nameIndex = names.push({ entry: entryIndex, ...prepareName(tokens) }) - 1;
      for (const blockKey of new Set(tokens.flatMap(blockKeys))) file(blocks, blockKey, nameIndex);
      if (tokens.length >= 2 && tokens.length <= SHORT_NAME_PARTS) {
        const filed = new Set<string>();
        let pair = 0;
        for (let i = 0; i < tokens.length; i++) {
          for (let j = i + 1; j < tokens.length; j++, pair++) {
            for (const key of pairKeys(tokens[i]!, tokens[j]!)) {
              if (filed.has(`${key} ${pair}`)) continue;
              filed.add(`${key} ${pair}`);
              file(pairBlocks, key, nameIndex * 4 + pair);
            }
          }
        }
      }
    }
  });
  return { entries, lists, names, blocks, pairBlocks, scratch: { hits: new Uint8Array(names.length), lastToken: new Uint32Array(names.length), token: 0 } };
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
 * A query part whose keys together file more names than this is a common one (Muhammad, Trading, Bank): it
 * still counts in the score, but does not bring names to score while the query has a rarer part.
 */
const COMMON_PART_NAMES = 1_500;

/**
 * The names worth scoring, in two groups. `anchored`: names filed under the keys of the query's rarer parts
 * (its two rarest when every part is common), held by at least two of those parts (or every one, for names
 * of fewer parts), since one shared part is capped low anyway; `anchors` (token indexes) are those parts,
 * for the cheap test before scoring. `short`: names of two or three parts every part of which the query's
 * parts meet, common ones included, through the pair keys.
 */
function blockedNames(index: SanctionsIndex, queryTokens: string[]): { anchored: number[]; short: number[]; anchors: number[] } {
  const distinct = [...new Set(queryTokens)];
  const parts = distinct.map((token) => {
    const buckets = blockKeys(token).map((key) => index.blocks.get(key) ?? []);
    return { at: queryTokens.indexOf(token), buckets, size: buckets.reduce((sum, bucket) => sum + bucket.length, 0) };
  }).sort((a, b) => a.size - b.size);
  const rare = parts.filter((part) => part.size <= COMMON_PART_NAMES);
  // a name made only of common parts is screened on its two rarest (its candidates are many: it is ambiguous)
  const generating = rare.length > 0 ? rare : parts.slice(0, 2);
  const { hits, lastToken } = index.scratch;
  const touched: number[] = [];
  for (const part of generating) {
    const token = ++index.scratch.token;
    for (const bucket of part.buckets) {
      for (const name of bucket) {
        if (lastToken[name] === token) continue;
        lastToken[name] = token;
        if (hits[name] === 0) touched.push(name);
        hits[name]!++;
      }
    }
  }
  const anchored: number[] = [];
  for (const name of touched) {
    if (hits[name]! >= Math.min(2, generating.length, index.names[name]!.tokens.length)) anchored.push(name);
    hits[name] = 0;
  }
  // which of each short name's pairs the query met: both parts of a two-part name, or two pairs (so all three
  // parts) of a three-part one; a three-part name met on one pair has a part the query lacks
  const pairsMet = new Map<number, number>();
  for (let i = 0; i < distinct.length; i++) {
    for (let j = i + 1; j < distinct.length; j++) {
      for (const key of pairKeys(distinct[i]!, distinct[j]!)) {
        for (const filed of index.pairBlocks.get(key) ?? []) {
          const name = Math.floor(filed / 4);
          pairsMet.set(name, (pairsMet.get(name) ?? 0) | (1 << (filed % 4)));
        }
      }
    }
  }
  const short: number[] = [];
  for (const [name, mask] of pairsMet) {
    const met = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
    if (met >= (index.names[name]!.tokens.length === 2 ? 1 : 2)) short.push(name);
  }
  return { anchored, short, anchors: generating.map((part) => part.at) };
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

/**
 * The parts of a screened name that are compared: the longest names on the lists have about ten (Spanish and
 * Arabic names with patronymics); text longer than this is not a name, and its pairs of parts would grow
 * with its square.
 */
const MAX_QUERY_PARTS = 12;

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
  const queryNames = [query.name, ...(query.aliases ?? [])]
    .map((name) => nameTokens(name).slice(0, MAX_QUERY_PARTS))
    .filter((tokens) => tokens.length > 0);
  const bestByEntry = new Map<number, number>();
  for (const tokens of queryNames) {
    const prepared = prepareName(tokens);
    const { anchored, short, anchors } = blockedNames(index, tokens);
    const chosen = new Set([...anchored.filter((name) => mightMatch(prepared, anchors, index.names[name]!)), ...short]);
    for (const nameIndex of chosen) {
      const listed = index.names[nameIndex]!;
      const similarity = preparedSimilarity(prepared, listed);
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
